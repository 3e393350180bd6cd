/** What tests script (turns and their steps), what the server records, and the real-server modes it can play. */
export type FakeToolCall = {
  id?: string;
  name: string;
  /** A string is sent verbatim (so malformed JSON can be scripted); anything else is JSON-encoded. */
  arguments: unknown;
  /** Characters of `arguments` per chunk (default 7), so arguments arrive split as real models send them. */
  chunkSize?: number;
};

export type FakeStep =
  /** Text deltas; a function is evaluated when the chunk is sent (benchmarks stamp the send time). */
  | { text: string | (() => string); chunkSize?: number }
  | { reasoning: string; field?: "reasoning_content" | "reasoning"; chunkSize?: number }
  | { toolCalls: FakeToolCall[] }
  | { usage: { prompt_tokens: number; completion_tokens: number } }
  | { delayMs: number }
  /** An error payload inside the stream (as OpenAI sends them mid-stream); `code` 429 reads as a rate limit. */
  | { streamError: { message: string; code?: number | string; type?: string } }
  /** The connection is dropped abruptly: no finish_reason, no [DONE]. */
  | { cut: true }
  /** Stop sending without closing (the agent's idle time-out must end it). */
  | { hang: true };

export type FakeTurn =
  | { kind: "stream"; steps: FakeStep[]; finishReason?: string }
  | { kind: "http"; status: number; body?: unknown; headers?: Record<string, string> };

/** `seen`: the messages the model answered from, when `silentWindow` cut the oldest ones away. */
export type RecordedRequest = { body: ChatRequestBody; headers: Record<string, string>; at: number; seen?: ChatRequestBody["messages"] };

/** The parts of a chat-completions request tests look at. */
export type ChatRequestBody = {
  model: string;
  stream?: boolean;
  messages: { role: string; content: unknown; tool_calls?: unknown[]; tool_call_id?: string; reasoning_content?: unknown }[];
  tools?: { type: string; function: { name: string; description?: string; parameters?: unknown } }[];
  reasoning_effort?: string;
  [key: string]: unknown;
};

/**
 * Behaviours of real servers, switched on per test:
 * - `requireReasoningContent`: like DeepSeek, a 400 for a request whose assistant tool-call turn lacks the
 *   `reasoning_content` it was sent with.
 * - `contextWindow`: a small window; a prompt that does not fit (its tokens counted as characters / 3, plus
 *   `max_tokens`) gets the 400 context-length error OpenAI and vLLM send, and replies report the prompt's
 *   tokens as usage (so the client can calibrate). `/v1/models` reports the window as `context_length`.
 * - `silentWindow`: Ollama's behaviour with a prompt longer than the window it runs: no error, the oldest
 *   messages are dropped (system messages and the last message kept) until the rest fits, the reply's usage
 *   reports the tokens of what was kept, and a responder sees only that (as the model would).
 * - `ollama`: answers Ollama's own `GET /api/version`, `POST /api/show` (the trained window in `model_info`;
 *   `numCtx` as a Modelfile's `num_ctx` in `parameters`) and `GET /api/ps` (the model loaded with `running`
 *   as its `context_length`, or nothing loaded), and reports no window on `/v1/models`, as Ollama does.
 *   `noReasoningEffort`: an older Ollama that refuses `reasoning_effort` with a 400.
 * - `repeatToolName` / `repeatToolArguments`: servers (some vLLM parsers, llama.cpp builds, proxies) that
 *   send a tool call's name in every chunk, or its complete arguments in every chunk, instead of once / as
 *   fragments.
 * - `refusesTools`: a server that answers any request with `tools` with a 400, as Ollama does for a model
 *   without tool support ("does not support tools") and vLLM started without `--enable-auto-tool-choice`.
 */
export type FakeServerMode = {
  refusesTools?: "ollama" | "vllm";
  repeatToolName?: boolean;
  repeatToolArguments?: boolean;
  requireReasoningContent?: boolean;
  contextWindow?: number;
  silentWindow?: number;
  ollama?: { contextLength: number; numCtx?: number; running?: number; noReasoningEffort?: boolean };
};

export type FakeModelServer = {
  /** The OpenAI base URL, ending in /v1. */
  baseUrl: string;
  requests: RecordedRequest[];
  /** Queue turns; each request takes the next one. */
  enqueue(...turns: FakeTurn[]): void;
  /** Decides a reply from the request when the queue is empty (e2e and benchmarks). */
  respondWith(fn: ((req: ChatRequestBody, index: number) => FakeTurn) | null): void;
  /** Number of queued turns not yet played. */
  pending(): number;
  /** Switches real-server behaviours on (reset() switches them off). */
  mode(mode: FakeServerMode): void;
  reset(): void;
  close(): Promise<void>;
};
