/**
 * A run's events as an SSE response: `data: {json}\n\n` per event (replayed from the start, then live),
 * a comment line every 15 s so proxies keep an idle stream open, closed after `done`. A client that goes
 * away only unsubscribes: the run itself goes on.
 */
import { encodeStreamEvent } from "@shared/events/stream";
import type { Run } from "../app-env";

export const SSE_HEARTBEAT_MS = 15_000;
const encoder = new TextEncoder();

export function runEventStream(run: Run, signal: AbortSignal, heartbeatMs = SSE_HEARTBEAT_MS): Response {
  let cleanup = () => {};
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      let closed = false;
      const write = (text: string) => {
        if (!closed) controller.enqueue(encoder.encode(text));
      };
      const heartbeat = setInterval(() => write(": keep-alive\n\n"), heartbeatMs);
      let unsubscribe = () => {};
      cleanup = () => {
        if (closed) return;
        closed = true;
        clearInterval(heartbeat);
        unsubscribe();
        signal.removeEventListener("abort", cleanup);
      };
      signal.addEventListener("abort", cleanup, { once: true });
      unsubscribe = run.subscribe((event) => {
        write(encodeStreamEvent(event));
        if (event.type === "done") {
          cleanup();
          controller.close();
        }
      });
    },
    cancel() {
      cleanup();
    },
  });
  return new Response(body, {
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache, no-transform",
      // nginx and similar proxies buffer responses unless told otherwise.
      "x-accel-buffering": "no",
    },
  });
}
