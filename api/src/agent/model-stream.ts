/**
 * One model turn: a streamed chat completion, read chunk by chunk. Text and reasoning go out as they
 * arrive; tool calls are assembled from their fragments (by index, as OpenAI sends them). Failures before
 * anything was shown are retried (429 honouring retry-after, 5xx and lost connections with back-off);
 * after that they end the turn with a message saying what happened, since a retry would repeat text.
 */
import type OpenAI from "openai";
import type { ChatCompletionCreateParamsStreaming, ChatCompletionMessageParam, ChatCompletionTool } from "openai/resources/chat/completions";
import { classifyModelError, describeWait, isOpenAiReasoningModel, type ModelFailure } from "./model-client";

export type ModelTurnOptions = {
  client: OpenAI;
  model: string;
  messages: ChatCompletionMessageParam[];
  tools: ChatCompletionTool[];
  enableReasoning: boolean;
  signal: AbortSignal;
  idleTimeoutMs: number;
  maxRetries: number;
  maxRetryWaitMs: number;
  backoffBaseMs: number;
  onText(text: string): void;
  onThinking(text: string): void;
  /** Called before waiting to retry (for logs). */
  onRetry?(failure: ModelFailure, waitMs: number, attempt: number): void;
};

export type AssembledToolCall = { id: string; name: string; arguments: string };

export type ModelTurn = {
  text: string;
  toolCalls: AssembledToolCall[];
  finishReason: string | null;
  usage: { promptTokens: number; completionTokens: number; totalTokens: number } | null;
};

/** A turn that could not complete; `message` is for the person reading the chat. */
export class ModelTurnError extends Error {
  constructor(
    message: string,
    readonly failure: ModelFailure,
  ) {
    super(message);
  }
}

class IdleTimeout extends Error {}

/** Servers that refuse `stream_options` (an older or stricter OpenAI-compatible server) get none next time. */
const refusesStreamOptions = new WeakSet<OpenAI>();

export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

export async function runModelTurn(o: ModelTurnOptions): Promise<ModelTurn> {
  for (let attempt = 0; ; attempt++) {
    let shown = false;
    try {
      return await streamOnce(o, () => (shown = true));
    } catch (error) {
      if (o.signal.aborted) throw o.signal.reason ?? error;
      const failure = error instanceof IdleTimeout
        ? { kind: "timeout" as const, message: `The model stopped sending data for ${o.idleTimeoutMs >= 1000 ? `${Math.round(o.idleTimeoutMs / 1000)} s` : `${o.idleTimeoutMs} ms`}.`, retryable: true }
        : classifyModelError(error);
      if (failure.kind === "client" && /stream_options|include_usage/i.test(failure.message) && !refusesStreamOptions.has(o.client)) {
        refusesStreamOptions.add(o.client);
        attempt--;
        continue;
      }
      if (shown) throw new ModelTurnError(`The model's answer was cut off: ${lowerFirst(failure.message)}`, failure);
      const wait = failure.retryAfterMs ?? o.backoffBaseMs * 2 ** attempt * (1 + Math.random() * 0.2);
      if (!failure.retryable || attempt >= o.maxRetries || wait > o.maxRetryWaitMs) throw new ModelTurnError(finalMessage(failure, wait, attempt), failure);
      o.onRetry?.(failure, wait, attempt + 1);
      await sleep(wait, o.signal);
    }
  }
}

function finalMessage(failure: ModelFailure, wait: number, attempt: number): string {
  const tries = attempt > 0 ? ` (after ${attempt + 1} attempts)` : "";
  if (failure.kind === "rate_limited") {
    return `The model is rate limited${tries}. Try again in about ${describeWait(wait)}. ${failure.message}`;
  }
  return `${failure.message}${tries}`;
}

const lowerFirst = (s: string) => s.charAt(0).toLowerCase() + s.slice(1);

async function streamOnce(o: ModelTurnOptions, markShown: () => void): Promise<ModelTurn> {
  const call = new AbortController();
  // One timer per call checking the time of the last chunk (re-arming a timeout per chunk costs more).
  let lastData = performance.now();
  const resetIdle = () => void (lastData = performance.now());
  const idle = setInterval(() => {
    if (performance.now() - lastData >= o.idleTimeoutMs) call.abort(new IdleTimeout());
  }, Math.max(10, Math.min(1_000, o.idleTimeoutMs / 4)));
  const signal = AbortSignal.any([o.signal, call.signal]);

  const params: ChatCompletionCreateParamsStreaming = {
    model: o.model,
    messages: o.messages,
    stream: true,
    ...(o.tools.length ? { tools: o.tools } : {}),
    ...(refusesStreamOptions.has(o.client) ? {} : { stream_options: { include_usage: true } }),
    ...(isOpenAiReasoningModel(o.model) ? { reasoning_effort: o.enableReasoning ? "high" : "low" } : {}),
  };

  let text = "";
  const calls: (AssembledToolCall & { index: number })[] = [];
  let finishReason: string | null = null;
  let usage: ModelTurn["usage"] = null;
  let sawChunk = false;
  try {
    const stream = await o.client.chat.completions.create(params, { signal });
    for await (const chunk of stream) {
      resetIdle();
      sawChunk = true;
      if (chunk.usage) {
        usage = { promptTokens: chunk.usage.prompt_tokens, completionTokens: chunk.usage.completion_tokens, totalTokens: chunk.usage.total_tokens };
      }
      const choice = chunk.choices?.[0];
      if (!choice) continue;
      const delta = choice.delta as typeof choice.delta & { reasoning_content?: unknown; reasoning?: unknown };
      const reasoning = typeof delta.reasoning_content === "string" ? delta.reasoning_content : typeof delta.reasoning === "string" ? delta.reasoning : "";
      if (reasoning && o.enableReasoning) {
        markShown();
        o.onThinking(reasoning);
      }
      if (typeof delta.content === "string" && delta.content) {
        text += delta.content;
        markShown();
        o.onText(delta.content);
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
        if (part.function?.name) entry.name += part.function.name;
        if (part.function?.arguments) entry.arguments += part.function.arguments;
      }
      if (choice.finish_reason) finishReason = choice.finish_reason;
    }
    // The SDK ends the iteration quietly when the request is aborted: say why it ended.
    if (call.signal.aborted) throw call.signal.reason;
    if (o.signal.aborted) throw o.signal.reason;
  } catch (error) {
    if (call.signal.aborted && call.signal.reason instanceof IdleTimeout) throw call.signal.reason;
    throw error;
  } finally {
    clearInterval(idle);
  }
  // Every OpenAI-compatible server ends a complete answer with a finish_reason; a body that ends without
  // one was cut (a proxy or the server closed it cleanly mid-answer).
  if (!finishReason) {
    throw new Error(sawChunk ? "the stream ended before the model finished" : "the stream ended without any data");
  }
  return {
    text,
    toolCalls: calls
      .sort((a, b) => a.index - b.index)
      .filter((c) => c.name)
      .map((c) => ({ id: c.id || `call_${crypto.randomUUID().replaceAll("-", "").slice(0, 9)}`, name: c.name, arguments: c.arguments })),
    finishReason,
    usage,
  };
}
