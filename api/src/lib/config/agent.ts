/**
 * How the agent runs: the model's context and output sizes, whether it sees images, how long a run may be
 * silent or last, the verify-and-repair rounds and the check's headless browser, when a silent run counts as abandoned, and web search.
 *
 * @example
 * agentConfig(e, "gpt-4o").agent.vision; // true: guessed from the name unless MODEL_VISION says otherwise
 */
import { z } from "zod";
import { isKnownVisionModel } from "./model";
import { countOrOff, optionalString, positiveInt } from "./values";

export const agentEnv = {
  SEARXNG_URL: optionalString.pipe(z.url({ message: "must be a full URL" }).optional()),
  RUN_STALE_SECONDS: positiveInt(120),
  MODEL_CONTEXT_TOKENS: positiveInt(0),
  MODEL_MAX_OUTPUT_TOKENS: positiveInt(0),
  MODEL_VISION: z
    .enum(["true", "false", "1", "0", "yes", "no", ""], { message: 'must be "true" or "false"' })
    .optional()
    .transform((v) => (v === undefined || v === "" ? undefined : v === "true" || v === "1" || v === "yes")),
  AGENT_IDLE_TIMEOUT_S: positiveInt(180),
  AGENT_MAX_RUN_S: positiveInt(20 * 60),
  AGENT_REPAIR_ROUNDS: countOrOff(3),
  MODEL_MAX_CONCURRENCY: countOrOff(0),
  CHECK_BROWSER_PATH: optionalString,
};

export type AgentConfig = {
  search: { kind: "none" } | { kind: "searxng"; url: string };
  /** A 'running' answer not refreshed for this long belongs to a server that died: it is marked failed. */
  runStaleMs: number;
  agent: {
    /** MODEL_CONTEXT_TOKENS; absent means: ask the endpoint's model metadata, else 32,768. */
    contextTokens: number | undefined;
    /** MODEL_MAX_OUTPUT_TOKENS; absent means 4,096, capped at about a quarter of a smaller model's window. */
    maxOutputTokens: number | undefined;
    /** Whether attached images are sent to the default model (MODEL_VISION, else guessed from the model's name). */
    vision: boolean;
    /** MODEL_VISION as set (for every model), or undefined: each model's name decides. */
    visionSetting?: boolean;
    idleTimeoutMs: number;
    maxRunMs: number;
    /** Verify-and-repair rounds before a run that leaves the app broken ends saying so (0 = no check). */
    repairRounds: number;
    /** Requests to one model at once from this instance; more wait in order (0 = no limit). */
    modelMaxConcurrency: number;
  };
  /**
   * The headless browser the check runs an app's page in when no preview is open (CHECK_BROWSER_PATH): "auto"
   * (the usual Chromium paths, unset), "off", or the browser's path.
   */
  checkBrowser: string;
};

export function agentConfig(e: z.infer<z.ZodObject<typeof agentEnv>>, defaultModel: string): AgentConfig {
  return {
    search: e.SEARXNG_URL ? { kind: "searxng", url: e.SEARXNG_URL } : { kind: "none" },
    runStaleMs: e.RUN_STALE_SECONDS * 1000,
    agent: {
      contextTokens: e.MODEL_CONTEXT_TOKENS || undefined,
      maxOutputTokens: e.MODEL_MAX_OUTPUT_TOKENS || undefined,
      vision: e.MODEL_VISION ?? isKnownVisionModel(defaultModel),
      visionSetting: e.MODEL_VISION,
      idleTimeoutMs: e.AGENT_IDLE_TIMEOUT_S * 1000,
      maxRunMs: e.AGENT_MAX_RUN_S * 1000,
      repairRounds: e.AGENT_REPAIR_ROUNDS,
      modelMaxConcurrency: e.MODEL_MAX_CONCURRENCY,
    },
    checkBrowser:
      !e.CHECK_BROWSER_PATH || e.CHECK_BROWSER_PATH.toLowerCase() === "auto"
        ? "auto"
        : /^(off|none|false|0)$/i.test(e.CHECK_BROWSER_PATH)
          ? "off"
          : e.CHECK_BROWSER_PATH,
  };
}
