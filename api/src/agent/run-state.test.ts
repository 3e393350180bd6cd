import { describe, expect, test } from "bun:test";
import { RunState } from "./run-state";

describe("RunState (the saved assistant message, built from the run's events)", () => {
  test("text, steps (in-progress lines are not kept), thinking, badges and actions", () => {
    const s = new RunState();
    s.apply({ type: "thinking", content: "hmm" });
    s.apply({ type: "chunk", content: "Setting up." });
    s.apply({ type: "tool_start", name: "run_shell", summary: "npm install zod" });
    s.apply({ type: "chunk", content: "\nInstalling zod\n", step: "in_progress" });
    s.apply({ type: "action", action: { description: "Installing zod", status: "in_progress" } });
    s.apply({ type: "chunk", content: "Installed zod\n", step: "completed" });
    s.apply({ type: "action", action: { description: "Installed zod", status: "completed" } });
    s.apply({ type: "tool_complete", name: "run_shell", summary: "npm install zod", result: "Exit code 0" });
    s.apply({ type: "tool_complete", name: "read_file", summary: "a.ts", result: "x" }); // no start: added as completed
    s.apply({ type: "chunk", content: "\nDone." });
    s.apply({ type: "done", status: "complete", usage: { promptTokens: 1, completionTokens: 2, totalTokens: 3 } });
    expect(s.final("complete")).toEqual({
      content: "Setting up.\nInstalled zod\n\nDone.",
      thinking: "hmm",
      toolCalls: [
        { name: "run_shell", summary: "npm install zod", status: "completed", result: "Exit code 0" },
        { name: "read_file", summary: "a.ts", status: "completed", result: "x" },
      ],
      actions: [{ description: "Installed zod", status: "completed" }],
      usage: { promptTokens: 1, completionTokens: 2, totalTokens: 3 },
    });
  });

  test("stopped and failed runs say so, and settle unfinished badges", () => {
    const stopped = new RunState();
    stopped.apply({ type: "chunk", content: "Half" });
    stopped.apply({ type: "tool_start", name: "run_shell", summary: "sleep 99" });
    const s = stopped.final("stopped");
    expect(s.content).toBe("Half\n\n_(Stopped by the user.)_");
    expect(s.toolCalls).toEqual([{ name: "run_shell", summary: "sleep 99", status: "completed", result: "(stopped before it finished)" }]);

    const failed = new RunState();
    failed.apply({ type: "error", message: "The model is rate limited. Try again in about 20 s." });
    expect(failed.final("failed").content).toBe("**Error:** The model is rate limited. Try again in about 20 s.");
    expect(new RunState().final("complete").content).toBe("(The model sent an empty answer.)");
  });
});
