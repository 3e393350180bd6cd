/**
 * An OpenAI-compatible chat-completions server for tests and benchmarks: a real HTTP server (Bun.serve on
 * an ephemeral port) that the real `openai` SDK talks to. It plays scripted replies, one turn per request,
 * and records every request body so tests can assert what the agent sent (image parts, trimmed history).
 *
 * @example
 * const model = await startFakeModelServer();
 * model.enqueue(
 *   turn.toolCalls([{ name: "write_file", arguments: { path: "a.txt", content: "hi" } }]),
 *   turn.text("Done."),
 * );
 * // OPENAI_BASE_URL = model.baseUrl
 */
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

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

/** Builders for the common turns. */
export const turn = {
  text: (text: string, extra: FakeStep[] = []): FakeTurn => ({ kind: "stream", steps: [{ text }, ...extra] }),
  steps: (...steps: FakeStep[]): FakeTurn => ({ kind: "stream", steps }),
  toolCalls: (calls: FakeToolCall[], text?: string): FakeTurn => ({
    kind: "stream",
    steps: [...(text ? [{ text }] : []), { toolCalls: calls }],
  }),
  /** Reasoning written inline in the answer's text, as DeepSeek-R1 and Qwen3 on Ollama or vLLM send it. */
  inlineThink: (thinking: string, answer: string): FakeTurn => ({ kind: "stream", steps: [{ text: `<think>\n${thinking}</think>\n${answer}`, chunkSize: 4 }] }),
  /** A reasoning model that spends its whole output budget thinking: reasoning, no answer, cut by the length limit. */
  thinksToTheLimit: (reasoning = "Let me think about this carefully. ".repeat(20)): FakeTurn => ({
    kind: "stream",
    steps: [{ reasoning }],
    finishReason: "length",
  }),
  http: (status: number, body?: unknown, headers?: Record<string, string>): FakeTurn => ({ kind: "http", status, body, headers }),
  rateLimited: (retryAfterSeconds: number): FakeTurn => ({
    kind: "http",
    status: 429,
    body: { error: { message: "Rate limit reached", type: "rate_limit_error", code: "rate_limit_exceeded" } },
    headers: { "retry-after": String(retryAfterSeconds) },
  }),
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

/** How the fake server counts a prompt's tokens in `contextWindow` mode (deliberately not the client's way). */
export const fakePromptTokens = (body: ChatRequestBody) => Math.ceil(JSON.stringify(body.messages).length / 3 + JSON.stringify(body.tools ?? []).length / 3);

/**
 * The text of the last user message in the model's `at`-th request (the newest by default), whether it came
 * as a string or as content parts (an image part adds no text). Throws when that request has none.
 */
export function lastUserText(model: { requests: RecordedRequest[] }, at = -1): string {
  const content = model.requests
    .at(at)
    ?.body.messages.filter((m) => m.role === "user")
    .at(-1)?.content;
  if (content === undefined) throw new Error(`the model's request ${at} has no user message`);
  if (typeof content === "string") return content;
  return Array.isArray(content) ? content.map((part: { text?: string }) => part.text ?? "").join("") : "";
}

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

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function split(text: string, size: number): string[] {
  if (text.length === 0) return [""];
  const parts: string[] = [];
  for (let i = 0; i < text.length; i += size) parts.push(text.slice(i, i + size));
  return parts;
}

export async function startFakeModelServer(options: { port?: number; hostname?: string } = {}): Promise<FakeModelServer> {
  const queue: FakeTurn[] = [];
  const requests: RecordedRequest[] = [];
  let responder: ((req: ChatRequestBody, index: number) => FakeTurn) | null = null;
  let counter = 0;
  let mode: FakeServerMode = {};

  // node:http rather than Bun.serve: a scripted cut must close the socket with a FIN after the data it
  // sent (so the client reads that data, then sees the body end early); Bun.serve can only reset it.
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://fake");
    const json = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { "content-type": "application/json", ...headers });
      res.end(JSON.stringify(body));
    };
    if (mode.ollama && req.method === "GET" && url.pathname === "/api/version") return json(200, { version: "0.12.0" });
    if (mode.ollama && req.method === "POST" && url.pathname === "/api/show") {
      const parameters = mode.ollama.numCtx
        ? `num_ctx                        ${mode.ollama.numCtx}\nstop                           "<|im_end|>"`
        : `stop                           "<|im_end|>"`;
      return json(200, {
        parameters,
        details: { family: "qwen2" },
        model_info: { "general.architecture": "qwen2", "qwen2.context_length": mode.ollama.contextLength },
      });
    }
    if (mode.ollama && req.method === "GET" && url.pathname === "/api/ps") {
      const loaded = mode.ollama.running
        ? [{ name: "fake-model:latest", model: "fake-model:latest", size: 1, details: { family: "qwen2" }, size_vram: 0, context_length: mode.ollama.running }]
        : [];
      return json(200, { models: loaded });
    }
    if (req.method === "GET" && url.pathname === "/v1/models") {
      const window = mode.contextWindow ? { context_length: mode.contextWindow } : {};
      return json(200, { object: "list", data: [{ id: "fake-model", object: "model", owned_by: "tests", ...window }] });
    }
    if (req.method !== "POST" || url.pathname !== "/v1/chat/completions") {
      return json(404, { error: { message: `No route ${req.method} ${url.pathname}` } });
    }
    let raw = "";
    for await (const part of req) raw += part;
    const body = JSON.parse(raw) as ChatRequestBody;
    const index = requests.length;
    const recorded: RecordedRequest = { body, headers: req.headers as Record<string, string>, at: Date.now() };
    requests.push(recorded);
    const refusal = refuse(body, mode);
    if (refusal) return json(400, refusal);
    const seen = mode.silentWindow ? cutToWindow(body, mode.silentWindow) : body;
    if (seen !== body) recorded.seen = seen.messages;
    const next = queue.shift() ?? responder?.(seen, index);
    if (!next) return json(500, { error: { message: "fake model: no scripted turn left", type: "server_error" } });
    if (next.kind === "http") {
      return json(next.status, next.body ?? { error: { message: `Scripted HTTP ${next.status}`, type: "server_error" } }, next.headers);
    }
    const id = `chatcmpl-fake-${++counter}`;
    const reportsUsage = mode.contextWindow || mode.silentWindow;
    const played: FakeTurn =
      reportsUsage && next.kind === "stream" && !next.steps.some((st) => "usage" in st)
        ? {
            ...next,
            steps: [...next.steps, { usage: { prompt_tokens: Math.min(fakePromptTokens(seen), mode.silentWindow ?? Infinity), completion_tokens: 10 } }],
          }
        : next;
    if (body.stream) await streamTurn(res, id, body.model, played, mode);
    else json(200, await wholeTurn(id, body.model, played));
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, options.hostname ?? "127.0.0.1", resolve));
  const address = server.address() as AddressInfo;

  return {
    baseUrl: `http://${address.address}:${address.port}/v1`,
    requests,
    enqueue: (...turns) => void queue.push(...turns),
    respondWith: (fn) => void (responder = fn),
    pending: () => queue.length,
    mode: (m) => void (mode = m),
    reset: () => {
      queue.length = 0;
      requests.length = 0;
      responder = null;
      mode = {};
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The 400 body a real server sends for a request it refuses in the given mode, or null. */
function refuse(body: ChatRequestBody, mode: FakeServerMode): unknown {
  if (mode.refusesTools === "ollama" && body.tools?.length) {
    return { error: { message: `registry.ollama.ai/library/${body.model} does not support tools`, type: "api_error", param: null, code: null } };
  }
  if (mode.refusesTools === "vllm" && body.tools?.length) {
    return {
      object: "error",
      message: '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set',
      type: "BadRequestError",
      param: null,
      code: 400,
    };
  }
  if (mode.ollama?.noReasoningEffort && body.reasoning_effort !== undefined) {
    return { error: { message: `invalid reasoning value: '${body.reasoning_effort}'`, type: "invalid_request_error" } };
  }
  if (mode.requireReasoningContent) {
    const missing = body.messages.findIndex((m) => m.role === "assistant" && m.tool_calls?.length && typeof m.reasoning_content !== "string");
    if (missing !== -1) {
      return {
        error: {
          message: `Missing \`reasoning_content\` field in the assistant message at message index ${missing}.`,
          type: "invalid_request_error",
          code: "invalid_request_error",
        },
      };
    }
  }
  if (mode.contextWindow) {
    const prompt = fakePromptTokens(body);
    const asked = typeof body.max_tokens === "number" ? body.max_tokens : 0;
    if (prompt + asked > mode.contextWindow) {
      return {
        error: {
          message: `This model's maximum context length is ${mode.contextWindow} tokens. However, you requested ${prompt + asked} tokens (${prompt} in the messages, ${asked} in the completion). Please reduce the length of the messages or completion.`,
          type: "invalid_request_error",
          code: "context_length_exceeded",
        },
      };
    }
  }
  return null;
}

/**
 * The request as a server that silently truncates sees it: its oldest messages dropped (system messages and
 * the last message always kept) until the prompt fits `window`. The same body when it already fits.
 */
function cutToWindow(body: ChatRequestBody, window: number): ChatRequestBody {
  if (fakePromptTokens(body) <= window) return body;
  const messages = [...body.messages];
  for (let i = 0; i < messages.length - 1 && fakePromptTokens({ ...body, messages }) > window; ) {
    if (messages[i]!.role === "system") i++;
    else messages.splice(i, 1);
  }
  return { ...body, messages };
}

type Delta = Record<string, unknown>;

function chunk(id: string, model: string, delta: Delta, finishReason: string | null = null) {
  return { id, object: "chat.completion.chunk", created: Math.floor(Date.now() / 1000), model, choices: [{ index: 0, delta, finish_reason: finishReason }] };
}

function toolCallChunks(calls: FakeToolCall[], startIndex: number, mode: FakeServerMode = {}): Delta[] {
  const deltas: Delta[] = [];
  calls.forEach((call, i) => {
    const index = startIndex + i;
    const args = typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments);
    const id = call.id ?? `call_${crypto.randomUUID().replaceAll("-", "").slice(0, 24)}`;
    // First chunk: id, type and name with empty arguments, as OpenAI sends it; then argument fragments.
    deltas.push({ tool_calls: [{ index, id, type: "function", function: { name: call.name, arguments: "" } }] });
    const parts = mode.repeatToolArguments ? [args, args, args] : split(args, call.chunkSize ?? 7);
    const name = mode.repeatToolName ? { name: call.name } : {};
    for (const part of parts) deltas.push({ tool_calls: [{ index, function: { ...name, arguments: part } }] });
  });
  return deltas;
}

async function streamTurn(res: ServerResponse, id: string, model: string, t: Extract<FakeTurn, { kind: "stream" }>, mode: FakeServerMode = {}): Promise<void> {
  let toolIndex = 0;
  let usedTools = false;
  res.socket?.setNoDelay(true); // each chunk goes out when written, as a real model server's do
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  res.flushHeaders();
  const send = (payload: unknown) => res.write(`data: ${JSON.stringify(payload)}\n\n`);
  send(chunk(id, model, { role: "assistant", content: "" }));
  for (const step of t.steps) {
    if (res.destroyed) return;
    if ("delayMs" in step) await sleep(step.delayMs);
    else if ("text" in step) {
      const text = typeof step.text === "function" ? step.text() : step.text;
      for (const part of split(text, step.chunkSize ?? 5)) send(chunk(id, model, { content: part }));
    } else if ("reasoning" in step) {
      for (const part of split(step.reasoning, step.chunkSize ?? 5)) send(chunk(id, model, { [step.field ?? "reasoning_content"]: part }));
    } else if ("toolCalls" in step) {
      for (const delta of toolCallChunks(step.toolCalls, toolIndex, mode)) send(chunk(id, model, delta));
      toolIndex += step.toolCalls.length;
      usedTools = true;
    } else if ("usage" in step) {
      const u = step.usage;
      send({ id, object: "chat.completion.chunk", created: 0, model, choices: [], usage: { ...u, total_tokens: u.prompt_tokens + u.completion_tokens } });
    } else if ("streamError" in step) {
      send({ error: { message: step.streamError.message, type: step.streamError.type ?? "server_error", code: step.streamError.code ?? null } });
      res.end();
      return;
    } else if ("cut" in step) {
      // FIN without the chunked terminator: the client gets what was sent, then a body that ended early.
      // The pause lets the client take in the response first (a close racing the headers reads as a
      // refused request instead of a cut).
      await new Promise((r) => res.write("", r));
      await sleep(20);
      res.socket?.end();
      return;
    } else if ("hang" in step) {
      return; // never ends; the client must give up (close() drops the connection)
    }
  }
  send(chunk(id, model, {}, t.finishReason ?? (usedTools ? "tool_calls" : "stop")));
  res.end("data: [DONE]\n\n");
}

async function wholeTurn(id: string, model: string, t: Extract<FakeTurn, { kind: "stream" }>) {
  let content = "";
  let reasoning = "";
  const toolCalls: unknown[] = [];
  let usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number } | undefined;
  for (const step of t.steps) {
    if ("delayMs" in step) await sleep(step.delayMs);
    else if ("text" in step) content += typeof step.text === "function" ? step.text() : step.text;
    else if ("reasoning" in step) reasoning += step.reasoning;
    else if ("toolCalls" in step) {
      for (const call of step.toolCalls) {
        toolCalls.push({
          id: call.id ?? `call_${crypto.randomUUID().replaceAll("-", "").slice(0, 24)}`,
          type: "function",
          function: { name: call.name, arguments: typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments) },
        });
      }
    } else if ("usage" in step) usage = { ...step.usage, total_tokens: step.usage.prompt_tokens + step.usage.completion_tokens };
    else if ("streamError" in step || "cut" in step || "hang" in step) {
      throw new Error("fake model: streamError/cut/hang steps only make sense in streamed replies");
    }
  }
  return {
    id,
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [
      {
        index: 0,
        message: {
          role: "assistant",
          content: content || null,
          ...(reasoning ? { reasoning_content: reasoning } : {}),
          ...(toolCalls.length ? { tool_calls: toolCalls } : {}),
        },
        finish_reason: t.finishReason ?? (toolCalls.length ? "tool_calls" : "stop"),
      },
    ],
    ...(usage ? { usage } : {}),
  };
}
