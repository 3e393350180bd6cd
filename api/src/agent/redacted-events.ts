/**
 * A run's stream events with the project's secret values hidden (`[secret NAME]`) before they are sent to
 * subscribers or saved. Answer text and reasoning arrive in deltas, so each has a stream redactor that holds
 * back a possible value's start; anything else in between first lets out what was held, so order is kept.
 *
 * @example
 * const redact = createEventRedactor(() => secrets.current());
 * for (const e of redact.event({ type: "chunk", content: "key is sk-li" })) emit(e); // sends "key is "
 * for (const e of redact.end()) emit(e); // what was still held back
 */
import type { StreamEvent } from "@shared/events/stream";
import { createStreamRedactor, redactDeep, type SecretValue } from "../lib/secret-redactor";

export type EventRedactor = {
  event(event: StreamEvent): StreamEvent[];
  /** What is still held back, as events (call before the run's last event, and when it ends). */
  end(): StreamEvent[];
};

export function createEventRedactor(secrets: () => readonly SecretValue[]): EventRedactor {
  const content = createStreamRedactor(secrets);
  const thinking = createStreamRedactor(secrets);
  const flush = (except?: "chunk" | "thinking"): StreamEvent[] => {
    const out: StreamEvent[] = [];
    const text = except === "chunk" ? "" : content.end();
    const thought = except === "thinking" ? "" : thinking.end();
    if (thought) out.push({ type: "thinking", content: thought });
    if (text) out.push({ type: "chunk", content: text });
    return out;
  };
  return {
    event(event) {
      // Step lines are whole lines the run wrote itself: redacted as they are, after the text before them.
      if (event.type === "chunk" && !event.step) {
        const out = flush("chunk");
        const text = content.push(event.content);
        return text ? [...out, { ...event, content: text }] : out;
      }
      if (event.type === "thinking") {
        const out = flush("thinking");
        const text = thinking.push(event.content);
        return text ? [...out, { ...event, content: text }] : out;
      }
      return [...flush(), redactDeep(event, secrets())];
    },
    end: () => flush(),
  };
}
