import { describe, expect, test } from "bun:test";
import type { StreamEvent } from "@shared/events/stream";
import { silentLogger } from "../lib/logger";
import { memoryRunStore } from "../test/memory-workspace";
import type { RunStore } from "./ports";
import { createRunRecorder, type RecorderOptions } from "./run-recorder";

// The recorder on the in-memory RunStore the run manager's tests use, with a claimed run to write to.
async function setup(o: Partial<RecorderOptions> = {}) {
  const runs = memoryRunStore({ p1: { ownerId: "alice", name: "Todo" } });
  await runs.store.claim({ projectId: "p1", userMessageId: "u1", assistantMessageId: "m1", content: "go", attachments: [], senderId: "alice" });
  const sent: StreamEvent[] = [];
  const recorder = createRunRecorder({
    store: runs.store,
    messageId: "m1",
    projectId: "p1",
    publish: (e) => sent.push(e),
    logger: silentLogger,
    model: "small",
    ...o,
  });
  return { runs, sent, recorder };
}

describe("run recorder", () => {
  test("events are sent at once and folded into the saved message; text is saved at most every progressSaveMs", async () => {
    const { runs, sent, recorder } = await setup({ progressSaveMs: 40 });
    recorder.emit({ type: "chunk", content: "Hel" });
    recorder.emit({ type: "chunk", content: "lo" });
    expect(sent.map((e) => e.type)).toEqual(["chunk", "chunk"]);
    expect(runs.calls.saveProgress).toBe(0);
    await Bun.sleep(80);
    expect(runs.calls.saveProgress).toBe(1);
    expect(runs.saved.get("m1")).toMatchObject({ content: "Hello", status: "running" });
    recorder.stop();
  });

  test("a tool event is saved at once, with the open step as it stands; the end of the tool settles (drops) it", async () => {
    const { runs, recorder } = await setup({ progressSaveMs: 60_000 });
    recorder.emit({ type: "tool_start", name: "run_shell", summary: "npm install zod" });
    recorder.emit({ type: "chunk", content: "Installing zod\n", step: "in_progress" });
    await Bun.sleep(20);
    expect(runs.saved.get("m1")).toMatchObject({ toolCalls: [{ name: "run_shell", status: "in_progress" }], content: "Installing zod\n" });
    recorder.emit({ type: "tool_complete", name: "run_shell", summary: "npm install zod", result: "ok" });
    await Bun.sleep(20);
    expect(runs.calls.saveProgress).toBe(2);
    expect(runs.saved.get("m1")).toMatchObject({ toolCalls: [{ status: "completed", result: "ok" }], content: "" });
    recorder.stop();
  });

  test("done is held until the message is saved; its usage carries the run's model and cost", async () => {
    const { runs, sent, recorder } = await setup({ prices: { large: { input: 1, output: 2 } } });
    recorder.model = "large";
    recorder.emit({ type: "chunk", content: "Answer" });
    recorder.emit({ type: "done", status: "complete", usage: { promptTokens: 1_000_000, completionTokens: 500_000, totalTokens: 1_500_000 } });
    expect(sent.map((e) => e.type)).toEqual(["chunk"]);
    const final = await recorder.finish("complete");
    const usage = { promptTokens: 1_000_000, completionTokens: 500_000, totalTokens: 1_500_000, model: "large", cost: 2 };
    expect(final).toMatchObject({ content: "Answer", usage });
    expect(runs.saved.get("m1")).toMatchObject({ content: "Answer", status: "complete", usage });
    recorder.sendDone("complete", final.usage);
    expect(sent.at(-1)).toEqual({ type: "done", messageId: "m1", status: "complete", usage });
  });

  test("a stopped run's message keeps its partial answer with the stop note, and its open step marked", async () => {
    const { runs, recorder } = await setup();
    recorder.emit({ type: "chunk", content: "Half" });
    recorder.emit({ type: "chunk", content: "\nInstalling zod\n", step: "in_progress" });
    await recorder.finish("stopped", "_(Stopped: the server restarted.)_");
    expect(runs.saved.get("m1")).toMatchObject({ status: "stopped", content: "Half\nInstalling zod (not finished)\n\n_(Stopped: the server restarted.)_" });
  });

  test("the error event is remembered; the heartbeat shows the run alive until stopped", async () => {
    const { runs, recorder } = await setup({ heartbeatMs: 15 });
    expect(recorder.error).toBeNull();
    recorder.emit({ type: "error", message: "Model unavailable" });
    expect(recorder.error).toBe("Model unavailable");
    await Bun.sleep(60);
    recorder.stop();
    const beats = runs.calls.heartbeat;
    expect(beats).toBeGreaterThan(0);
    await Bun.sleep(40);
    expect(runs.calls.heartbeat).toBe(beats);
  });

  test("the final save is tried three times; a store that keeps failing is logged and the message still returned", async () => {
    const { runs } = await setup();
    let failures = 2;
    const flaky: Pick<RunStore, "saveProgress" | "heartbeat" | "finish"> = {
      ...runs.store,
      finish: async (...args) => {
        if (failures-- > 0) throw new Error("connection reset");
        return runs.store.finish(...args);
      },
    };
    const recorder = createRunRecorder({
      store: flaky,
      messageId: "m1",
      projectId: "p1",
      publish: () => {},
      logger: silentLogger,
      model: "small",
      finishRetryMs: 5,
    });
    recorder.emit({ type: "chunk", content: "Saved on the third try" });
    await recorder.finish("complete");
    expect(runs.saved.get("m1")).toMatchObject({ status: "complete", content: "Saved on the third try" });

    const errors: string[] = [];
    const down = createRunRecorder({
      store: { ...runs.store, finish: async () => Promise.reject(new Error("down")) },
      messageId: "m2",
      projectId: "p1",
      publish: () => {},
      logger: { ...silentLogger, error: (message: string) => errors.push(message) },
      model: "small",
      finishRetryMs: 5,
    });
    down.emit({ type: "chunk", content: "Lost" });
    expect((await down.finish("complete")).content).toBe("Lost");
    expect(errors).toEqual(["run result not saved"]);
  });
});
