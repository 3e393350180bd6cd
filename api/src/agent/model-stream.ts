/**
 * One model turn, the same for every provider: a streamed completion whose text and reasoning go out as
 * they arrive, ended by an idle time-out when the model goes silent. Failures before anything was shown are
 * retried (429 honouring retry-after, 5xx and lost connections with back-off); after that they end the turn
 * with a message saying what happened, since a retry would repeat text.
 */
import type { ChatMessage, ToolSpec } from "./chat-message";
import { InlineThinkingSplitter } from "./inline-thinking";
import { describeWait, type ModelClient, type ModelFailure, type ModelTurn } from "./model";
import { parseTextToolCalls, TextToolCallGuard } from "./text-tool-calls";

export type ModelTurnOptions = {
  client: ModelClient;
  model: string;
  messages: ChatMessage[];
  tools: ToolSpec[];
  /** The tools whose calls written as text are read; the offered ones when absent. */
  textCallTools?: ToolSpec[];
  enableReasoning: boolean;
  /** Sent as the request's output limit, always (some servers default to a few hundred tokens). */
  maxOutputTokens: number;
  signal: AbortSignal;
  idleTimeoutMs: number;
  maxRetries: number;
  maxRetryWaitMs: number;
  backoffBaseMs: number;
  onText(text: string): void;
  onThinking(text: string): void;
  /** Called before waiting to retry (for logs). */
  onRetry?(failure: ModelFailure, waitMs: number, attempt: number): void;
  /**
   * The connection dropped after text was shown and the turn is asked again from the last complete
   * step (once per turn): the caller tells the reader the answer restarts.
   */
  onRestart?(failure: ModelFailure): void;
  /** Every failed attempt, retried or not (for metrics). */
  onFailure?(failure: ModelFailure): void;
  /** The first text or reasoning of an attempt arrived, `seconds` after it was sent (for metrics). */
  onFirstOutput?(seconds: number): void;
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

/**
 * How much of a reply's start is held to see whether a lone `</think>` ends it as reasoning (R1-distill, QwQ:
 * their templates open the tag in the prompt). Models known to do it, by name or from an earlier reply, are
 * held until the tag or the end; others are not held, so ordinary answers stream (a lone tag from them is
 * dropped from the answer and their later replies are held).
 */
const LONE_CLOSE_NAMES = /(^|[^a-z])(r1|qwq)([^a-z]|$)|distill/i;
const BRIEF_HOLD_CHARS = 0;
const loneCloseModels = new WeakMap<object, Set<string>>();

function holdForLoneClose(client: object, model: string): number {
  return LONE_CLOSE_NAMES.test(model) || loneCloseModels.get(client)?.has(model) ? Number.POSITIVE_INFINITY : BRIEF_HOLD_CHARS;
}

function rememberLoneClose(client: object, model: string): void {
  const known = loneCloseModels.get(client) ?? new Set<string>();
  known.add(model);
  loneCloseModels.set(client, known);
}

export async function runModelTurn(o: ModelTurnOptions): Promise<ModelTurn> {
  let restarted = false;
  for (let attempt = 0; ; attempt++) {
    let shown = false;
    const sent = performance.now();
    try {
      return await streamOnce(o, () => {
        if (!shown) o.onFirstOutput?.((performance.now() - sent) / 1000);
        shown = true;
      });
    } catch (error) {
      if (o.signal.aborted) throw o.signal.reason ?? error;
      const failure =
        error instanceof IdleTimeout
          ? {
              kind: "timeout" as const,
              message: `The model stopped sending data for ${o.idleTimeoutMs >= 1000 ? `${Math.round(o.idleTimeoutMs / 1000)} s` : `${o.idleTimeoutMs} ms`}.`,
              retryable: true,
            }
          : o.client.classify(error);
      o.onFailure?.(failure);
      if (shown) {
        // A dropped connection is worth one more try even after text was shown: the messages are those of
        // the last complete step, so asking again repeats nothing that was run.
        if (!restarted && failure.kind === "connection") {
          restarted = true;
          o.onRestart?.(failure);
          attempt = -1;
          continue;
        }
        throw new ModelTurnError(`The model's answer was cut off: ${lowerFirst(failure.message)}`, failure);
      }
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
  const idle = setInterval(
    () => {
      if (performance.now() - lastData >= o.idleTimeoutMs) call.abort(new IdleTimeout());
    },
    Math.max(10, Math.min(1_000, o.idleTimeoutMs / 4)),
  );
  const signal = AbortSignal.any([o.signal, call.signal]);
  // Answer text passes two filters: inline <think> goes to thinking, and text that may be a tool call
  // written as text is held until the turn ends.
  let shownText = "";
  const showText = (delta: string) => {
    if (!delta) return;
    markShown();
    shownText += delta;
    o.onText(delta);
  };
  const showThinking = (delta: string) => {
    if (!o.enableReasoning) return;
    markShown();
    o.onThinking(delta);
  };
  const guard = new TextToolCallGuard(
    showText,
    o.tools.map((t) => t.name),
  );
  const splitter = new InlineThinkingSplitter(
    {
      text: (t) => guard.push(t),
      thinking: showThinking,
    },
    holdForLoneClose(o.client, o.model),
  );
  try {
    const turn = await o.client.stream(
      { model: o.model, messages: o.messages, tools: o.tools, enableReasoning: o.enableReasoning, maxOutputTokens: o.maxOutputTokens },
      signal,
      {
        data: () => void (lastData = performance.now()),
        text: (delta) => splitter.push(delta),
        thinking: showThinking,
      },
    );
    splitter.end();
    if (splitter.sawLoneClose) rememberLoneClose(o.client, o.model);
    const { held, callLike } = guard.end();
    let toolCalls = turn.toolCalls;
    let rest = held;
    if (held && toolCalls.length === 0) {
      const parsed = parseTextToolCalls(held, o.textCallTools ?? o.tools);
      toolCalls = parsed.calls;
      rest = parsed.text;
    }
    // A text call cut by the output limit cannot be parsed; it is not an answer either.
    const textCallCut = turn.finishReason === "length" && callLike && toolCalls.length === 0;
    if (!textCallCut && (rest.trim() || (rest && toolCalls.length === 0))) showText(rest);
    return { ...turn, text: shownText, toolCalls, ...(textCallCut ? { textCallCut } : {}) };
  } catch (error) {
    // A held start of the reply was received: it counts as shown (so a cut reply restarts, saying so).
    splitter.release();
    if (call.signal.aborted && call.signal.reason instanceof IdleTimeout) throw call.signal.reason;
    throw error;
  } finally {
    clearInterval(idle);
  }
}
