import { describe, expect, test } from "bun:test";
import type { StreamEvent } from "@shared/events/stream";
import { followRun } from "./follow-run";

/** A response whose body sends `chunks` and then ends, or fails with `fail`. */
function sse(chunks: string[], o: { fail?: Error; hold?: boolean } = {}): Response {
  const encoder = new TextEncoder();
  let next = 0;
  // Pulled one chunk at a time, so what was sent before a failure is read before it.
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const chunk = chunks[next++];
      if (chunk !== undefined) controller.enqueue(encoder.encode(chunk));
      else if (o.fail) controller.error(o.fail);
      else if (!o.hold) controller.close();
    },
  });
  return new Response(body, { headers: { "content-type": "text/event-stream" } });
}
const data = (event: unknown) => `data: ${JSON.stringify(event)}\n\n`;

async function follow(res: Response, signal = new AbortController().signal) {
  const events: StreamEvent[] = [];
  const end = await followRun(res, { signal, onEvent: (e) => events.push(e) });
  return { end, types: events.map((e) => e.type) };
}

describe("followRun", () => {
  test("a stream that ends with done is done, every event told in order; malformed ones are skipped", async () => {
    const res = sse([
      data({ type: "chunk", content: "Hi" }),
      "data: {not json\n\n",
      data({ type: "tool_start", name: "write_file", summary: "a" }),
      data({ type: "done", status: "complete" }),
    ]);
    expect(await follow(res)).toEqual({ end: "done", types: ["chunk", "tool_start", "done"] });
  });

  test("a stream that ends without done was cut: dropped", async () => {
    expect(await follow(sse([data({ type: "chunk", content: "Hal" })]))).toEqual({ end: "dropped", types: ["chunk"] });
  });

  test("a connection that fails mid-way is dropped, even after an error event", async () => {
    const res = sse([data({ type: "error", message: "boom" })], { fail: new Error("network") });
    expect(await follow(res)).toEqual({ end: "dropped", types: ["error"] });
  });

  test("aborted (the chat went away): abandoned, and nothing read after the abort is told", async () => {
    const controller = new AbortController();
    const events: string[] = [];
    const res = sse([data({ type: "chunk", content: "a" })], { hold: true });
    const ended = followRun(res, {
      signal: controller.signal,
      onEvent: (e) => {
        events.push(e.type);
        controller.abort();
      },
    });
    expect(await ended).toBe("abandoned");
    expect(events).toEqual(["chunk"]);
  });

  test("an answer without a body has nothing to follow", async () => {
    expect(await follow(new Response(null, { status: 200 }))).toEqual({ end: "no-body", types: [] });
  });
});
