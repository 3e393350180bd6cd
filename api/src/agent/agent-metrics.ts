/**
 * What the agent reports for the server's metrics, as a port it owns (the agent imports no metrics library):
 * the composition root (`compose.ts`) hands in one that writes to Prometheus; absent, nothing is recorded.
 */
import type { RunStatus } from "@shared/events/stream";

export type AgentMetrics = {
  /** A run ended (its `done` sent), after `seconds`, with the tokens it used when the model reported them. */
  runFinished(outcome: RunStatus, seconds: number, usage: { promptTokens: number; completionTokens: number } | null): void;
  /** A model request failed (each attempt, retried or not); `kind` is the ModelFailure kind. */
  modelError(kind: string): void;
  /** The first text or reasoning of a model request arrived `seconds` after it was sent. */
  firstToken(seconds: number): void;
  /** A model request waited `seconds` in MODEL_MAX_CONCURRENCY's line before it was sent. */
  queueWait(seconds: number): void;
};
