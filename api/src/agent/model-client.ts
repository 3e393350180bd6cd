/**
 * The model endpoint: an `openai` SDK client for any OpenAI-compatible server (OpenAI, Ollama, vLLM,
 * LM Studio…), behind the agent's own `ModelClient`. The only file that knows the OpenAI wire format:
 * the agent's messages and tool specs are converted here, streamed chunks are assembled here, and failures
 * are read here. The SDK's own retries are off: `model-stream.ts` retries itself so it can honour
 * `retry-after`, report the wait, and never repeat text already streamed.
 *
 * @example
 * const client = createModelClient({ apiKey: "sk-…", baseUrl: "http://127.0.0.1:11434/v1" });
 * const turn = await client.stream({ model: "llama3.1:8b", messages, tools: [], enableReasoning: false }, signal, callbacks);
 */
import OpenAI from "openai";
import type { ChatCompletionCreateParamsStreaming, ChatCompletionFunctionTool, ChatCompletionMessageParam } from "openai/resources/chat/completions";
import type { ChatMessage, ToolCallRequest, ToolSpec } from "./chat-message";
import type { ModelClient, ModelFailure, ModelRequest, ModelTurn } from "./model";
import { refusesTools, withToolsInPrompt } from "./prompt-tools";

/** Where the model is served (the configured endpoint; `baseUrl` absent means OpenAI's own API). */
export type ModelEndpoint = { apiKey: string; baseUrl?: string };

export function createModelClient(endpoint: ModelEndpoint, fetchImpl: typeof fetch = fetch): ModelClient {
  const sdk = new OpenAI({
    apiKey: endpoint.apiKey,
    baseURL: endpoint.baseUrl,
    maxRetries: 0,
    // Time to the response headers; a silent stream is caught by the turn's idle time-out.
    timeout: 5 * 60_000,
  });
  // A server that refuses `stream_options` (an older or stricter OpenAI-compatible server) gets none from then
  // on; a model that refuses `reasoning_effort` (on an Ollama before thinking control, or one whose thinking
  // cannot be turned off) is not asked to stop thinking again. That is per model: one client serves them all.
  let refusesStreamOptions = false;
  const refusesReasoningEffort = new Set<string>();
  // Models the server wants their reasoning back for (DeepSeek's reasoner refuses a tool-call turn without it):
  // found from its refusal, or known by the endpoint; others are not sent it, as it only costs tokens.
  const sendsReasoning = new Set<string>();
  const reasoningEndpoint = /deepseek/i.test(endpoint.baseUrl ?? "");
  // Models the server takes no `tools` for: they get the tools described in the prompt from then on.
  const toolsInPrompt = new Set<string>();
  const metadata = endpointMetadata(endpoint, fetchImpl);
  return {
    classify: classifyModelError,
    async stream(request, signal, on) {
      for (;;) {
        // With the reasoning toggle off, Ollama is asked not to think (`reasoning_effort: "none"`; its OpenAI API
        // takes no other switch): a local thinking model (Qwen3, DeepSeek-R1) otherwise spends its tokens and
        // time on reasoning nobody will see.
        const thinkingOff =
          !request.enableReasoning && !refusesReasoningEffort.has(request.model) && !isOpenAiReasoningModel(request.model) && (await metadata.isOllama());
        try {
          const inPrompt = request.tools.length > 0 && toolsInPrompt.has(request.model);
          const reasoning = reasoningEndpoint || sendsReasoning.has(request.model);
          return await streamOnce(sdk, request, { withUsage: !refusesStreamOptions, thinkingOff, inPrompt, reasoning }, signal, on);
        } catch (error) {
          if (signal.aborted) throw error;
          const failure = classifyModelError(error);
          if (failure.kind !== "client") throw error;
          if (!refusesStreamOptions && /stream_options|include_usage/i.test(failure.message)) refusesStreamOptions = true;
          else if (!sendsReasoning.has(request.model) && /reasoning_content/i.test(failure.message)) sendsReasoning.add(request.model);
          else if (thinkingOff && /reasoning|think/i.test(failure.message)) refusesReasoningEffort.add(request.model);
          else if (request.tools.length && !toolsInPrompt.has(request.model) && refusesTools(`${failure.message} ${rawBody(error)}`)) {
            toolsInPrompt.add(request.model);
          } else throw error;
        }
      }
    },
    contextWindow: (model) => metadata.contextWindow(model),
  };
}

/**
 * The agent's messages as OpenAI chat messages. Images travel as data URLs. With `reasoning`, reasoning that
 * came with a tool-call turn goes back as `reasoning_content`: DeepSeek-style servers reject the next
 * request without it; to others it is only tokens, so they are not sent it.
 */
export function toOpenAiMessages(messages: ChatMessage[], o: { reasoning?: boolean } = {}): ChatCompletionMessageParam[] {
  return messages.map((m): ChatCompletionMessageParam => {
    switch (m.role) {
      case "system":
        return { role: "system", content: m.content };
      case "user":
        return m.images?.length
          ? {
              role: "user",
              content: [
                { type: "text", text: m.content },
                ...m.images.map((image) => ({ type: "image_url" as const, image_url: { url: `data:${image.mime};base64,${image.base64}` } })),
              ],
            }
          : { role: "user", content: m.content };
      case "assistant":
        return m.toolCalls?.length
          ? {
              role: "assistant",
              content: m.content || null,
              tool_calls: m.toolCalls.map((c) => ({ id: c.id, type: "function", function: { name: c.name, arguments: c.arguments } })),
              ...(o.reasoning && m.reasoning ? { reasoning_content: m.reasoning } : {}),
            }
          : { role: "assistant", content: m.content };
      case "tool":
        return { role: "tool", tool_call_id: m.toolCallId, content: m.content };
    }
  });
}

export const toOpenAiTools = (tools: ToolSpec[]): ChatCompletionFunctionTool[] =>
  tools.map((t) => ({ type: "function", function: { name: t.name, description: t.description, parameters: t.parameters } }));

async function streamOnce(
  sdk: OpenAI,
  request: ModelRequest,
  { withUsage, thinkingOff, inPrompt, reasoning }: { withUsage: boolean; thinkingOff: boolean; inPrompt: boolean; reasoning: boolean },
  signal: AbortSignal,
  on: Parameters<ModelClient["stream"]>[2],
): Promise<ModelTurn> {
  const params: ChatCompletionCreateParamsStreaming = {
    model: request.model,
    messages: toOpenAiMessages(inPrompt ? withToolsInPrompt(request.messages, request.tools) : request.messages, { reasoning }),
    stream: true,
    ...(request.tools.length && !inPrompt ? { tools: toOpenAiTools(request.tools) } : {}),
    ...(withUsage ? { stream_options: { include_usage: true } } : {}),
    ...(isOpenAiReasoningModel(request.model)
      ? {
          reasoning_effort: request.enableReasoning ? "high" : "low",
          // Their reasoning counts against this limit: with reasoning on, less leaves no room for the answer.
          max_completion_tokens: request.enableReasoning ? Math.max(request.maxOutputTokens, OPENAI_REASONING_MIN_OUTPUT) : request.maxOutputTokens,
        }
      : { max_tokens: request.maxOutputTokens }),
    ...(thinkingOff ? { reasoning_effort: "none" } : {}),
    // No window is sent: Ollama's OpenAI-compatible endpoint has no `options` (num_ctx) and ignores it; the
    // window it runs with is its own setting (OLLAMA_CONTEXT_LENGTH, a Modelfile), read by `contextWindow`.
  } as ChatCompletionCreateParamsStreaming;

  let text = "";
  let reasoningText = "";
  const calls: (ToolCallRequest & { index: number })[] = [];
  let finishReason: string | null = null;
  let usage: ModelTurn["usage"] = null;
  let sawChunk = false;
  const stream = await sdk.chat.completions.create(params, { signal });
  for await (const chunk of stream) {
    on.data();
    sawChunk = true;
    if (chunk.usage) {
      usage = { promptTokens: chunk.usage.prompt_tokens, completionTokens: chunk.usage.completion_tokens, totalTokens: chunk.usage.total_tokens };
    }
    const choice = chunk.choices?.[0];
    if (!choice) continue;
    const delta = choice.delta as typeof choice.delta & { reasoning_content?: unknown; reasoning?: unknown };
    const reasoning = typeof delta.reasoning_content === "string" ? delta.reasoning_content : typeof delta.reasoning === "string" ? delta.reasoning : "";
    if (reasoning) {
      reasoningText += reasoning;
      on.thinking(reasoning);
    }
    if (typeof delta.content === "string" && delta.content) {
      text += delta.content;
      on.text(delta.content);
    }
    for (const part of delta.tool_calls ?? []) {
      // Servers that leave out `index` send each call whole, or continue the last one.
      const index = typeof part.index === "number" ? part.index : part.id || calls.length === 0 ? calls.length : calls.at(-1)!.index;
      let entry = calls.find((c) => c.index === index);
      if (!entry) {
        entry = { index, id: "", name: "", arguments: "" };
        calls.push(entry);
      }
      if (part.id) entry.id = part.id;
      // Some servers repeat the name in every chunk, or send the complete arguments in every chunk (or again
      // at the end): a repeat is not a continuation.
      if (part.function?.name && part.function.name !== entry.name) entry.name += part.function.name;
      if (part.function?.arguments) entry.arguments = joinArguments(entry.arguments, part.function.arguments);
    }
    if (choice.finish_reason) finishReason = choice.finish_reason;
  }
  // The SDK ends the iteration quietly when the request is aborted: say why it ended.
  if (signal.aborted) throw signal.reason;
  // Every OpenAI-compatible server ends a complete answer with a finish_reason; a body that ends without
  // one was cut (a proxy or the server closed it cleanly mid-answer).
  if (!finishReason) {
    throw new Error(sawChunk ? "the stream ended before the model finished" : "the stream ended without any data");
  }
  return {
    text,
    reasoning: reasoningText,
    toolCalls: calls
      .sort((a, b) => a.index - b.index)
      .filter((c) => c.name)
      .map((c) => ({ id: c.id || `call_${crypto.randomUUID().replaceAll("-", "").slice(0, 9)}`, name: c.name, arguments: c.arguments })),
    finishReason,
    usage,
  };
}

/** An API error's body as sent (vLLM puts its message at the top level, where the SDK does not look). */
function rawBody(error: unknown): string {
  return error instanceof OpenAI.APIError ? JSON.stringify(error.error ?? "") : "";
}

/** Arguments so far plus the next piece, unless both are complete JSON: then the piece is the whole again. */
function joinArguments(sofar: string, piece: string): string {
  if (!sofar || !isCompleteJson(sofar) || !isCompleteJson(piece)) return sofar + piece;
  return piece;
}

function isCompleteJson(text: string): boolean {
  const t = text.trim();
  if (!t.startsWith("{") && !t.startsWith("[")) return false;
  try {
    JSON.parse(t);
    return true;
  } catch {
    return false;
  }
}

/**
 * What the endpoint says about itself: is it Ollama, and how large is a model's context window. For Ollama
 * that is the window it actually runs the model with: `/api/ps` while the model is loaded (its
 * OLLAMA_CONTEXT_LENGTH, Modelfile or default, often 2–4k) or was when last seen loaded, else a Modelfile's
 * `num_ctx` from `/api/show`, else the trained window, which Ollama may not run; a prompt cut to a smaller
 * window is then caught from the reply's usage (the loop's silent-truncation check).
 */
function endpointMetadata(endpoint: ModelEndpoint, fetchImpl: typeof fetch) {
  const base = (endpoint.baseUrl ?? "https://api.openai.com/v1").replace(/\/+$/, "");
  const root = base.replace(/\/v1$/, "");
  const get = async (url: string, init: RequestInit = {}): Promise<unknown> => {
    try {
      const res = await fetchImpl(url, {
        ...init,
        headers: { authorization: `Bearer ${endpoint.apiKey}`, "content-type": "application/json" },
        signal: AbortSignal.timeout(3_000),
      });
      return res.ok ? await res.json() : null;
    } catch {
      return null;
    }
  };
  // Only endpoints that are not OpenAI's own are asked; OpenAI reports no window.
  let ollama: Promise<boolean> | undefined;
  const isOllama = () =>
    (ollama ??= endpoint.baseUrl
      ? get(`${root}/api/version`).then((v) => typeof (v as { version?: unknown } | null)?.version === "string")
      : Promise.resolve(false));
  // What does not change while the server runs: the /v1/models entry, or Ollama's Modelfile and trained window.
  const described = new Map<string, Promise<number | null>>();
  const describedWindow = (model: string) => {
    let known = described.get(model);
    if (!known) {
      known = (async () => {
        const list = (await get(`${base}/models`)) as { data?: Record<string, unknown>[] } | null;
        const entry = list?.data?.find((m) => m.id === model);
        const fromList = windowOf(entry) ?? windowOf(entry?.meta as Record<string, unknown> | undefined);
        if (fromList) return fromList;
        if (!(await isOllama())) return null;
        const show = (await get(`${root}/api/show`, { method: "POST", body: JSON.stringify({ model }) })) as {
          parameters?: unknown;
          model_info?: Record<string, unknown>;
        } | null;
        const modelfile = typeof show?.parameters === "string" ? Number(/^num_ctx\s+(\d+)\s*$/m.exec(show.parameters)?.[1]) : NaN;
        if (Number.isInteger(modelfile) && modelfile > 0) return modelfile;
        const key = Object.keys(show?.model_info ?? {}).find((k) => k.endsWith(".context_length"));
        const n = key ? Number(show!.model_info![key]) : NaN;
        return Number.isInteger(n) && n > 0 ? n : null;
      })();
      described.set(model, known);
    }
    return known;
  };
  /** The window a loaded Ollama model runs with; null when it is not loaded (or the server does not say). */
  const runningWindow = async (model: string): Promise<number | null> => {
    const ps = (await get(`${root}/api/ps`)) as { models?: { name?: unknown; model?: unknown; context_length?: unknown }[] } | null;
    const tagged = (name: unknown) => (typeof name === "string" && !name.includes(":") ? `${name}:latest` : name);
    const entry = ps?.models?.find((m) => [m.name, m.model].some((name) => tagged(name) === tagged(model)));
    const n = Number(entry?.context_length);
    return Number.isInteger(n) && n > 0 ? n : null;
  };
  // The window each model last ran with: Ollama unloads an idle model, and loads it again with the same
  // setting, so that window is still the one to fit rather than the trained window /api/show gives.
  const lastRunning = new Map<string, number>();
  const contextWindow = async (model: string): Promise<number | null> => {
    if (!endpoint.baseUrl) return null;
    if (await isOllama()) {
      const running = await runningWindow(model);
      if (running) lastRunning.set(model, running);
      const known = running ?? lastRunning.get(model);
      if (known) return known;
    }
    return describedWindow(model);
  };
  return { isOllama, contextWindow };
}

/** The context window fields OpenAI-compatible servers put on a `/v1/models` entry (vLLM, OpenRouter, LM Studio, llama.cpp). */
function windowOf(entry: Record<string, unknown> | undefined): number | null {
  for (const key of ["context_length", "max_model_len", "context_window", "max_context_length", "n_ctx_train", "n_ctx"]) {
    const n = Number(entry?.[key]);
    if (Number.isInteger(n) && n > 0) return n;
  }
  return null;
}

/** The least output an OpenAI reasoning model is given with reasoning on (OpenAI suggests 25k for hard problems). */
const OPENAI_REASONING_MIN_OUTPUT = 16_384;

/** OpenAI's reasoning families (o1, o3, o4, gpt-5): they take `reasoning_effort`, and nothing else does. */
export function isOpenAiReasoningModel(model: string): boolean {
  const name = model.toLowerCase().split("/").pop() ?? "";
  return /^(o1|o3|o4)(-|$)/.test(name) || /^gpt-5/.test(name);
}

function retryAfterMs(headers: Headers | undefined): number | undefined {
  const ms = Number(headers?.get("retry-after-ms"));
  if (headers?.get("retry-after-ms") && Number.isFinite(ms) && ms >= 0) return ms;
  const value = headers?.get("retry-after");
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isFinite(date) ? Math.max(0, date - Date.now()) : undefined;
}

const isRateLimitCode = (v: unknown) => v === 429 || v === "429" || (typeof v === "string" && /rate.?limit/i.test(v));

/**
 * Servers' ways of saying a prompt is over the window: OpenAI's code, and the wordings of OpenAI, vLLM,
 * llama.cpp, Ollama, Anthropic- and Gemini-style proxies. A 400 that merely mentions "context" (a parameter
 * named so) is some other refusal.
 */
const CONTEXT_CODES = /^(context_length_exceeded|exceed_context_size_error|string_above_max_length)$/;
const CONTEXT_WORDING =
  /maximum context length|context (window|length|size)|too many tokens|prompt is too long|input is too long|(input|prompt|request) (length )?exceeds|exceeds? the (model's )?(maximum|max|available)? ?(context|token|input)/i;

function isContextLengthError(...signs: unknown[]): boolean {
  const detail = String(signs.at(-1));
  return signs.slice(0, -1).some((s) => typeof s === "string" && CONTEXT_CODES.test(s)) || CONTEXT_WORDING.test(detail);
}

export function classifyModelError(error: unknown): ModelFailure {
  if (error instanceof OpenAI.APIConnectionTimeoutError) {
    return { kind: "timeout", message: "The model did not answer in time.", retryable: true };
  }
  if (error instanceof OpenAI.APIError) {
    const status = error.status;
    const body = error.error as { code?: unknown; type?: unknown; message?: unknown } | undefined;
    const detail = (typeof body?.message === "string" && body.message) || error.message;
    if (status === 429 || isRateLimitCode(error.code) || isRateLimitCode(body?.code) || isRateLimitCode(body?.type)) {
      return { kind: "rate_limited", message: `The model is rate limited: ${detail}`, retryable: true, retryAfterMs: retryAfterMs(error.headers), status: 429 };
    }
    if (status === undefined && error instanceof OpenAI.APIConnectionError) {
      return {
        kind: "connection",
        message: `Could not reach the model endpoint (${error.cause instanceof Error ? error.cause.message : error.message}).`,
        retryable: true,
      };
    }
    if (status === undefined) {
      // An error payload inside the stream.
      return { kind: "server", message: `The model reported an error: ${detail}`, retryable: true };
    }
    if (status === 400 && isContextLengthError(error.code, body?.code, body?.type, detail)) {
      return { kind: "context_length", message: `The conversation is too long for the model: ${detail}`, retryable: false, status };
    }
    if (status === 401 || status === 403) {
      return { kind: "client", message: `The model endpoint refused the request (HTTP ${status}): ${detail}. Check OPENAI_API_KEY.`, retryable: false, status };
    }
    if (status === 404) {
      return { kind: "client", message: `The model endpoint answered HTTP 404: ${detail}. Check OPENAI_MODEL and OPENAI_BASE_URL.`, retryable: false, status };
    }
    if (status >= 500 || status === 408 || status === 409) {
      return { kind: "server", message: `The model endpoint failed (HTTP ${status}): ${detail}`, retryable: true, status };
    }
    return { kind: "client", message: `The model endpoint rejected the request (HTTP ${status}): ${detail}`, retryable: false, status };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { kind: "connection", message: `The connection to the model was lost (${message}).`, retryable: true };
}
