/**
 * A run's events for its subscribers: a new subscriber gets every event sent so far, then the live ones, so
 * a page that reloads picks the stream up where it is; once `done` was sent it gets the replay only. A
 * listener that throws is logged and the others still get the event.
 *
 * @example
 * const channel = createRunChannel(logger);
 * const unsubscribe = channel.subscribe((event) => send(event));
 * channel.publish({ type: "chunk", content: "Hi" });
 */
import type { StreamEvent } from "@shared/events/stream";
import type { Logger } from "../lib/logger";

export type RunChannel = {
  /** Replays every event so far, then delivers live ones. Returns the unsubscribe function. */
  subscribe(listener: (event: StreamEvent) => void): () => void;
  publish(event: StreamEvent): void;
  /** Drops the live listeners (the run has ended). */
  close(): void;
};

export function createRunChannel(logger: Logger): RunChannel {
  const events: StreamEvent[] = [];
  const listeners = new Set<(event: StreamEvent) => void>();
  return {
    subscribe(listener) {
      for (const event of events) listener(event);
      if (events.at(-1)?.type === "done") return () => {};
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    publish(event) {
      events.push(event);
      for (const listener of listeners) {
        try {
          listener(event);
        } catch (error) {
          logger.warn("stream listener failed", { error: String(error) });
        }
      }
    },
    close: () => listeners.clear(),
  };
}
