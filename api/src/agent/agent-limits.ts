/**
 * The limits a run works within (steps, tokens, time, retries, the context window, repair rounds), and their
 * defaults; the server's config overrides them (AGENT_* and MODEL_* variables).
 */
export type AgentLimits = {
  /** Model calls per run. */
  maxSteps: number;
  /** Tokens per run (as the model reports them, else estimated). */
  maxRunTokens: number;
  /** Wall-clock time per run. */
  maxRunMs: number;
  /** No data from the model for this long ends the turn. */
  idleTimeoutMs: number;
  /** Retries of a model call that failed before showing anything (429, 5xx, lost connection). */
  maxRetries: number;
  /** A single wait longer than this (e.g. a long retry-after) is not waited for: the run ends saying so. */
  maxRetryWaitMs: number;
  backoffBaseMs: number;
  /** The model's context window, in tokens; history and tool results are trimmed to fit. */
  contextTokens: number;
  /** The answer's token limit, sent with every request (MODEL_MAX_OUTPUT_TOKENS). */
  maxOutputTokens: number;
  /** Rounds of "the app has problems, fix them" before a run ends saying what still fails (AGENT_REPAIR_ROUNDS; 0 = no check). */
  repairRounds: number;
  /** Time the dev server gets to recompile after the last change before the app is checked. */
  verifySettleMs: number;
};

export const DEFAULT_AGENT_LIMITS: AgentLimits = {
  maxSteps: 40,
  maxRunTokens: 2_000_000,
  maxRunMs: 20 * 60_000,
  idleTimeoutMs: 3 * 60_000,
  maxRetries: 3,
  maxRetryWaitMs: 60_000,
  backoffBaseMs: 1_000,
  contextTokens: 32_768,
  maxOutputTokens: 4_096,
  repairRounds: 3,
  verifySettleMs: 500,
};
