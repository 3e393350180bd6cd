/**
 * One model turn, the same for every provider: a streamed completion whose text and reasoning go out as
 * they arrive, ended by an idle time-out when the model goes silent. Failures before anything was shown are
 * retried (429 honouring retry-after, 5xx and lost connections with back-off); after that they end the turn
 * with a message saying what happened, since a retry would repeat text.
 */
import type { ChatMessage, ToolSpec } from "./chat-message";
import { describeWait, type ModelClient, type ModelFailure, type ModelTurn } from "./model";

export type ModelTurnOptions = {
  client: ModelClient;
  model: string;
  messages: ChatMessage[];
  tools: ToolSpec[];
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
        : o.client.classify(error);
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
  const idle = setInterval(() => {
    if (performance.now() - lastData >= o.idleTimeoutMs) call.abort(new IdleTimeout());
  }, Math.max(10, Math.min(1_000, o.idleTimeoutMs / 4)));
  const signal = AbortSignal.any([o.signal, call.signal]);
  try {
    const turn = await o.client.stream({ model: o.model, messages: o.messages, tools: o.tools, enableReasoning: o.enableReasoning }, signal, {
      data: () => void (lastData = performance.now()),
      text(delta) {
        markShown();
        o.onText(delta);
      },
      thinking(delta) {
        if (!o.enableReasoning) return;
        markShown();
        o.onThinking(delta);
      },
    });
    return o.enableReasoning ? turn : { ...turn, reasoning: "" };
  } catch (error) {
    if (call.signal.aborted && call.signal.reason instanceof IdleTimeout) throw call.signal.reason;
    throw error;
  } finally {
    clearInterval(idle);
  }
}
