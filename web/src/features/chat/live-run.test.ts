import { describe, expect, test } from "bun:test";
import type { StreamEvent } from "@shared/events/stream";
import { applyStreamEvent, emptyLiveRun } from "./live-run";

const play = (events: StreamEvent[]) => events.reduce(applyStreamEvent, emptyLiveRun());

describe("applyStreamEvent", () => {
  test("builds the answer from chunks, thinking and tools", () => {
    const run = play([
      { type: "thinking", content: "Let me " },
      { type: "thinking", content: "think." },
      { type: "chunk", content: "Creating " },
      { type: "chunk", content: "files\n", step: "in_progress" },
      { type: "tool_start", name: "write_file", summary: "src/App.tsx" },
      { type: "tool_complete", name: "write_file", summary: "src/App.tsx", result: "Created" },
      { type: "chunk", content: "Done." },
      { type: "done", messageId: "m1", status: "complete", usage: { promptTokens: 10, completionTokens: 5, totalTokens: 15 } },
    ]);
    expect(run.thinking).toBe("Let me think.");
    expect(run.content).toBe("Creating files\nDone.");
    expect(run.toolCalls).toEqual([{ name: "write_file", summary: "src/App.tsx", status: "completed", result: "Created" }]);
    expect(run).toMatchObject({ done: true, status: "complete", messageId: "m1", usage: { totalTokens: 15 } });
  });

  test("an error marks the run failed; done without a status keeps that", () => {
    const run = play([{ type: "chunk", content: "Part" }, { type: "error", message: "Model unavailable" }, { type: "done" }]);
    expect(run).toMatchObject({ content: "Part", error: "Model unavailable", status: "failed", done: true });
  });

  test("a stopped run keeps its partial answer", () => {
    expect(
      play([
        { type: "chunk", content: "Half an" },
        { type: "done", status: "stopped" },
      ]),
    ).toMatchObject({ content: "Half an", status: "stopped" });
  });

  test("without done the run is not finished (a cut stream)", () => {
    expect(play([{ type: "chunk", content: "x" }]).done).toBe(false);
  });

  test("a secret request shows until its tool call completes (or the run ends)", () => {
    const asked: StreamEvent[] = [
      { type: "tool_start", name: "request_secret", summary: "API_KEY" },
      { type: "secret_request", name: "API_KEY", reason: "For the weather API" },
    ];
    expect(play(asked).secretRequest).toEqual({ name: "API_KEY", reason: "For the weather API" });
    expect(play([...asked, { type: "tool_complete", name: "read_file", summary: "a", result: "" }]).secretRequest).not.toBeNull();
    expect(play([...asked, { type: "tool_complete", name: "request_secret", summary: "API_KEY: set", result: "set" }]).secretRequest).toBeNull();
    expect(play([...asked, { type: "done", status: "stopped" }]).secretRequest).toBeNull();
  });

  test("queued shows the place in line while the run waits for the model, and goes when it is its turn or the run ends", () => {
    expect(play([{ type: "queued", position: 2 }]).queued).toBe(2);
    expect(
      play([
        { type: "queued", position: 2 },
        { type: "queued", position: 1 },
      ]).queued,
    ).toBe(1);
    expect(
      play([
        { type: "queued", position: 1 },
        { type: "queued", position: 0 },
        { type: "chunk", content: "Hi" },
      ]),
    ).toMatchObject({ queued: null, content: "Hi" });
    expect(
      play([
        { type: "queued", position: 1 },
        { type: "done", status: "stopped" },
      ]).queued,
    ).toBeNull();
  });
});
