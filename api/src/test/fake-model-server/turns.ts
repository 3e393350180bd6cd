/** Builders for scripted turns, and reading back what the agent sent. */
import type { FakeToolCall, FakeStep, FakeTurn, RecordedRequest } from "./types";

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
