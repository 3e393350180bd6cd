import { describe, expect, test } from "bun:test";
import type { StreamEvent } from "@shared/events/stream";
import type { Run } from "../agent/runs";
import { runEventStream } from "./chat-sse";

/** A run whose events the test pushes by hand. */
function manualRun() {
  const events: StreamEvent[] = [];
  const listeners = new Set<(e: StreamEvent) => void>();
  const run: Run = {
    projectId: "p",
    by: "Ana",
    userMessageId: "u",
    messageId: "m",
    finished: new Promise(() => {}),
    subscribe(listener) {
      for (const e of events) listener(e);
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  const push = (e: StreamEvent) => {
    events.push(e);
    for (const l of listeners) l(e);
  };
  return { run, push, listeners };
}

async function readAll(res: Response): Promise<string> {
  return new TextDecoder().decode(await res.arrayBuffer());
}

describe("runEventStream", () => {
  test("replays past events, streams live ones as `data:` lines with keep-alive comments, and ends after done", async () => {
    const { run, push, listeners } = manualRun();
    push({ type: "chunk", content: "Hel" });
    const res = runEventStream(run, new AbortController().signal, 30);
    expect(res.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    expect(res.headers.get("cache-control")).toBe("no-cache, no-transform");
    const body = readAll(res);
    await Bun.sleep(80);
    push({ type: "chunk", content: "lo" });
    push({ type: "done", messageId: "m", status: "complete", usage: null });
    const text = await body;
    expect(text).toStartWith('data: {"type":"chunk","content":"Hel"}\n\n');
    expect(text).toContain(": keep-alive\n\n");
    expect(text).toEndWith('data: {"type":"chunk","content":"lo"}\n\ndata: {"type":"done","messageId":"m","status":"complete","usage":null}\n\n');
    expect(listeners.size).toBe(0);
  });

  test("a client that goes away only unsubscribes", async () => {
    const { run, push, listeners } = manualRun();
    const abort = new AbortController();
    const res = runEventStream(run, abort.signal);
    const reader = res.body!.getReader();
    push({ type: "chunk", content: "x" });
    await reader.read();
    expect(listeners.size).toBe(1);
    abort.abort();
    expect(listeners.size).toBe(0);
    push({ type: "chunk", content: "after" }); // no throw on a closed stream
  });
});
