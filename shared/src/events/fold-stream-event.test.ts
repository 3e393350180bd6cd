import { describe, expect, test } from "bun:test";
import { applyToolComplete, applyToolStart, emptyRunFold, foldStreamEvent, toSavedMessage } from "./fold-stream-event";
import type { StreamEvent } from "./stream";

const play = (events: StreamEvent[]) => events.reduce(foldStreamEvent, emptyRunFold());

const installing: StreamEvent[] = [
  { type: "chunk", content: "Setting up." },
  { type: "tool_start", name: "run_shell", summary: "npm install zod" },
  { type: "chunk", content: "\nInstalling zod\n", step: "in_progress" },
  { type: "action", action: { description: "Installing zod", status: "in_progress" } },
];

describe("foldStreamEvent: in-progress steps", () => {
  test("live, an in-progress step line is in the content and open until something settles it", () => {
    const fold = play(installing);
    expect(fold.content).toBe("Setting up.\nInstalling zod\n");
    expect(fold.openSteps).toEqual([{ start: 12, end: 27 }]);
    expect(fold.content.slice(12, 27)).toBe("Installing zod\n");
    expect(fold.actions).toEqual([{ description: "Installing zod", status: "in_progress" }]);
    expect(fold.status).toBe("streaming");
  });

  test("the next step line settles it", () => {
    const fold = play([...installing, { type: "chunk", content: "Installed zod\n", step: "completed" }]);
    expect(fold.openSteps).toEqual([]);
    expect(fold.settledSteps).toEqual([{ start: 12, end: 27 }]);
    expect(fold.content).toBe("Setting up.\nInstalling zod\nInstalled zod\n");
  });

  test("the end of its tool call settles it, even without a completed line", () => {
    const fold = play([...installing, { type: "tool_complete", name: "run_shell", summary: "npm install zod", result: "Exit code 1" }]);
    expect(fold.openSteps).toEqual([]);
    expect(fold.settledSteps).toHaveLength(1);
  });

  test("plain text does not settle it, and a new in-progress step settles the one before", () => {
    const fold = play([...installing, { type: "chunk", content: "still going" }, { type: "chunk", content: "\nChecking the app…\n", step: "in_progress" }]);
    expect(fold.settledSteps).toEqual([{ start: 12, end: 27 }]);
    expect(fold.openSteps).toHaveLength(1);
    const open = fold.openSteps[0]!;
    expect(fold.content.slice(open.start, open.end)).toBe("Checking the app…\n");
  });
});

describe("foldStreamEvent: text, thinking, tools, errors, done", () => {
  test("text and thinking split across events are joined", () => {
    const fold = play([
      { type: "thinking", content: "Let me " },
      { type: "chunk", content: "Hel" },
      { type: "thinking", content: "think." },
      { type: "chunk", content: "lo" },
    ]);
    expect(fold).toMatchObject({ thinking: "Let me think.", content: "Hello" });
  });

  test("a tool call streamed in parts: the start's preview summary is replaced by the finished one", () => {
    const fold = play([
      { type: "tool_start", name: "write_file", summary: "src/" },
      { type: "tool_start", name: "write_file", summary: "b.ts" },
      { type: "tool_complete", name: "write_file", summary: "src/App.tsx (12 lines)", result: "Created" },
    ]);
    expect(fold.toolCalls).toEqual([
      { name: "write_file", summary: "src/App.tsx (12 lines)", status: "completed", result: "Created" },
      { name: "write_file", summary: "b.ts", status: "in_progress" },
    ]);
  });

  test("a tool_complete with no start adds a completed badge; other names are left alone", () => {
    const calls = applyToolStart([], { name: "run_shell", summary: "ls" });
    expect(applyToolComplete(calls, { name: "read_file", summary: "a.ts", result: "x" })).toEqual([
      { name: "run_shell", summary: "ls", status: "in_progress" },
      { name: "read_file", summary: "a.ts", status: "completed", result: "x" },
    ]);
  });

  test("an error marks the run failed at once; done without a status keeps that", () => {
    const errored = play([
      { type: "chunk", content: "Part" },
      { type: "error", message: "Model unavailable" },
    ]);
    expect(errored).toMatchObject({ status: "failed", error: "Model unavailable", done: false });
    expect(foldStreamEvent(errored, { type: "done" })).toMatchObject({ status: "failed", done: true });
  });

  test("done gives the status, the message id and the usage; a done without usage keeps the one before", () => {
    const usage = { promptTokens: 1, completionTokens: 2, totalTokens: 3 };
    const fold = play([{ type: "done", status: "stopped", messageId: "m1", usage }]);
    expect(fold).toMatchObject({ done: true, status: "stopped", messageId: "m1", usage });
    expect(foldStreamEvent(fold, { type: "done" }).usage).toEqual(usage);
    expect(play([{ type: "done" }]).status).toBe("complete");
  });

  test("each event returns a new fold and leaves the old one as it was", () => {
    const before = play(installing);
    const copy = structuredClone(before);
    foldStreamEvent(before, { type: "tool_complete", name: "run_shell", summary: "s", result: "r" });
    foldStreamEvent(before, { type: "action", action: { description: "Installed zod", status: "completed" } });
    expect(before).toEqual(copy);
  });
});

describe("toSavedMessage", () => {
  test("a complete run: settled in-progress lines left out (their line breaks kept), completed actions, settled badges", () => {
    const fold = play([
      { type: "thinking", content: "hmm" },
      ...installing,
      { type: "chunk", content: "Installed zod\n", step: "completed" },
      { type: "action", action: { description: "Installed zod", status: "completed" } },
      { type: "tool_complete", name: "run_shell", summary: "npm install zod", result: "Exit code 0" },
      { type: "chunk", content: "\nDone." },
      { type: "done", status: "complete", usage: { promptTokens: 1, completionTokens: 2, totalTokens: 3 } },
    ]);
    expect(toSavedMessage(fold, "complete")).toEqual({
      content: "Setting up.\nInstalled zod\n\nDone.",
      thinking: "hmm",
      toolCalls: [{ name: "run_shell", summary: "npm install zod", status: "completed", result: "Exit code 0" }],
      actions: [{ description: "Installed zod", status: "completed" }],
      usage: { promptTokens: 1, completionTokens: 2, totalTokens: 3 },
    });
  });

  test("a complete run has no step stuck in progress, even one nothing settled", () => {
    const fold = play([
      { type: "chunk", content: "Hi\nRestarting the app\n", step: "in_progress" },
      { type: "chunk", content: "Bye" },
    ]);
    expect(toSavedMessage(fold, "complete").content).toBe("Bye");
    expect(
      toSavedMessage(
        play([
          { type: "chunk", content: "Hi" },
          { type: "chunk", content: "\nRestarting the app\n", step: "in_progress" },
        ]),
        "complete",
      ).content,
    ).toBe("Hi\n");
  });

  test("while running, an open step is saved as it is and settled ones are left out", () => {
    const fold = play([
      ...installing,
      { type: "chunk", content: "Installed zod\n", step: "completed" },
      { type: "chunk", content: "Checking the app…\n", step: "in_progress" },
    ]);
    const saved = toSavedMessage(fold, "running");
    expect(saved.content).toBe("Setting up.\nInstalled zod\nChecking the app…\n");
    expect(saved.toolCalls).toEqual([{ name: "run_shell", summary: "npm install zod", status: "in_progress" }]);
    expect(saved.actions).toEqual([]);
  });

  test("a stopped run marks its open step not finished, closes its badge, and says it was stopped", () => {
    const saved = toSavedMessage(play(installing), "stopped");
    expect(saved.content).toBe("Setting up.\nInstalling zod (not finished)\n\n_(Stopped by the user.)_");
    expect(saved.toolCalls).toEqual([{ name: "run_shell", summary: "npm install zod", status: "completed", result: "(stopped before it finished)" }]);
    expect(toSavedMessage(play([{ type: "chunk", content: "Half" }]), "stopped", "_(Server restarted.)_").content).toBe("Half\n\n_(Server restarted.)_");
  });

  test("a failed run says the error, marks its open step and its badges interrupted", () => {
    const fold = play([...installing, { type: "error", message: "The model is rate limited." }]);
    const saved = toSavedMessage(fold, "failed");
    expect(saved.content).toBe("Setting up.\nInstalling zod (not finished)\n\n**Error:** The model is rate limited.");
    expect(saved.toolCalls[0]).toMatchObject({ status: "completed", result: "(interrupted before it finished)" });
    expect(toSavedMessage(emptyRunFold(), "failed").content).toBe("**Error:** the run ended unexpectedly.");
  });

  test("an empty complete answer says so; one with only tool badges does not", () => {
    expect(toSavedMessage(emptyRunFold(), "complete").content).toBe("(The model sent an empty answer.)");
    const toolsOnly = play([{ type: "tool_complete", name: "read_file", summary: "a", result: "x" }]);
    expect(toSavedMessage(toolsOnly, "complete").content).toBe("");
  });

  test("the saved message is a copy: changing it leaves the fold alone", () => {
    const fold = play(installing);
    const saved = toSavedMessage(fold, "running");
    saved.toolCalls[0]!.status = "completed";
    expect(fold.toolCalls[0]!.status).toBe("in_progress");
  });
});
