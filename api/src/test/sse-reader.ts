/**
 * Reads a chat stream (SSE) as it arrives, keeping when each event came, so tests can wait for one event
 * while the stream goes on, and check that events arrived one by one rather than all at the end.
 *
 * @example
 * const stream = readSse(await fetch(url, { method: "POST", … }));
 * await stream.next((_, text) => text.includes("Hello"));
 * const done = await stream.next((e) => e.type === "done");
 */
import { streamEventSchema, type StreamEvent } from "@shared/events/stream";

export type SseReader = {
  events: StreamEvent[];
  /** performance.now() when each event arrived, by index. */
  times: number[];
  /** The chunks' text so far. */
  text(): string;
  /** Waits for an event `pred` accepts (given the event and the text so far). */
  next(pred: (event: StreamEvent, text: string) => boolean, ms?: number): Promise<StreamEvent>;
  /** Resolves when the body ends (rejects when the connection breaks). */
  ended: Promise<void>;
};

export function readSse(res: Response): SseReader {
  const events: StreamEvent[] = [];
  const times: number[] = [];
  const waiters = new Set<() => boolean>();
  const text = () => events.flatMap((e) => (e.type === "chunk" ? [e.content] : [])).join("");
  const ended = (async () => {
    const decoder = new TextDecoder();
    let buffer = "";
    const reader = res.body!.getReader();
    for (let r = await reader.read(); !r.done; r = await reader.read()) {
      const chunk = r.value;
      buffer += decoder.decode(chunk, { stream: true });
      let end: number;
      while ((end = buffer.indexOf("\n\n")) !== -1) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        for (const line of block.split("\n")) {
          if (!line.startsWith("data: ")) continue;
          events.push(streamEventSchema.parse(JSON.parse(line.slice(6))));
          times.push(performance.now());
        }
        for (const check of [...waiters]) check();
      }
    }
  })();
  ended.catch(() => {}); // a broken connection is for the test that cares to look at
  const next = (pred: (event: StreamEvent, text: string) => boolean, ms = 10_000) =>
    new Promise<StreamEvent>((resolve, reject) => {
      const check = () => {
        const found = events.find((e) => pred(e, text()));
        if (!found) return false;
        waiters.delete(check);
        clearTimeout(timer);
        resolve(found);
        return true;
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`no matching event within ${ms} ms; got ${JSON.stringify(events)}`));
      }, ms);
      if (!check()) waiters.add(check);
    });
  return { events, times, text, next, ended };
}
