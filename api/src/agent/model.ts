/**
 * The model, as the agent sees it: one streamed completion at a time, in the agent's own message and tool
 * types, and a reading of its failures. `model-client.ts` implements it for any OpenAI-compatible server;
 * `model-stream.ts` adds retries and the idle time-out on top, the same for every provider.
 */
import type { ChatMessage, ToolCallRequest, ToolSpec } from "./chat-message";

export type ModelRequest = {
  model: string;
  messages: ChatMessage[];
  tools: ToolSpec[];
  enableReasoning: boolean;
  /** The answer's token limit, always sent. */
  maxOutputTokens: number;
};

export type ModelTurn = {
  text: string;
  /** Reasoning text the model streamed (empty when it sent none). */
  reasoning: string;
  toolCalls: ToolCallRequest[];
  finishReason: string | null;
  /** The reply ended (cut by the length limit) inside what began as a tool call written as text. */
  textCallCut?: boolean;
  usage: { promptTokens: number; completionTokens: number; totalTokens: number } | null;
};

export type ModelFailure = {
  kind: "rate_limited" | "server" | "connection" | "timeout" | "client" | "context_length";
  message: string;
  /** Worth another try (before anything was streamed)? */
  retryable: boolean;
  /** From retry-after / retry-after-ms, when the server said. */
  retryAfterMs?: number;
  status?: number;
};

export interface ModelClient {
  /**
   * One streamed completion. `data` is called for every piece received (it keeps the idle time-out away),
   * `text` and `thinking` with each delta. Resolves with the assembled turn; rejects on any failure, and
   * with `signal.reason` when aborted.
   */
  stream(request: ModelRequest, signal: AbortSignal, on: { data(): void; text(delta: string): void; thinking(delta: string): void }): Promise<ModelTurn>;
  /** How a rejection of `stream` reads to a person, and whether it is worth retrying. */
  classify(error: unknown): ModelFailure;
  /**
   * The model's context window as the endpoint reports it, or null when it does not say: for Ollama the
   * window it runs the model with (only known while the model is loaded, so this is asked on every run).
   */
  contextWindow?(model: string): Promise<number | null>;
}

export const MODEL_NOT_CONFIGURED =
  "No AI model is configured on this server. Set OPENAI_API_KEY (for OpenAI), or OPENAI_BASE_URL (for Ollama, vLLM, " +
  "LM Studio or any OpenAI-compatible server), and OPENAI_MODEL, then restart the server.";

export function describeWait(ms: number): string {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  return seconds < 120 ? `${seconds} s` : `${Math.ceil(seconds / 60)} min`;
}
