import { describe, expect, test } from "bun:test";
import type { ToolCall } from "@shared/schemas/message";
import { applyToolComplete, applyToolStart, displayedToolStatus, toolKind } from "./tool-calls";

describe("tool badges", () => {
  test("tool_start adds an in-progress entry", () => {
    expect(applyToolStart([], { name: "write_file", summary: "src/App.tsx" })).toEqual([{ name: "write_file", summary: "src/App.tsx", status: "in_progress" }]);
  });

  test("tool_complete completes the first in-progress tool of the same name", () => {
    let calls: ToolCall[] = [];
    calls = applyToolStart(calls, { name: "write_file", summary: "a.ts" });
    calls = applyToolStart(calls, { name: "run_shell", summary: "ls" });
    calls = applyToolStart(calls, { name: "write_file", summary: "b.ts" });
    calls = applyToolComplete(calls, { name: "write_file", summary: "Wrote a.ts", result: "ok" });
    expect(calls).toEqual([
      { name: "write_file", summary: "Wrote a.ts", status: "completed", result: "ok" },
      { name: "run_shell", summary: "ls", status: "in_progress" },
      { name: "write_file", summary: "b.ts", status: "in_progress" },
    ]);
    calls = applyToolComplete(calls, { name: "write_file", summary: "Wrote b.ts", result: "ok" });
    expect(calls.map((c) => c.status)).toEqual(["completed", "in_progress", "completed"]);
  });

  test("tool_complete without an in-progress match adds a completed entry", () => {
    const calls: ToolCall[] = [{ name: "write_file", summary: "a.ts", status: "completed", result: "ok" }];
    expect(applyToolComplete(calls, { name: "write_file", summary: "b.ts", result: "done" })).toEqual([
      ...calls,
      { name: "write_file", summary: "b.ts", status: "completed", result: "done" },
    ]);
    expect(applyToolComplete([], { name: "run_code", summary: "python", result: "42" })).toEqual([
      { name: "run_code", summary: "python", status: "completed", result: "42" },
    ]);
  });

  test("does not change the list it was given", () => {
    const calls: ToolCall[] = [{ name: "edit_file", summary: "x", status: "in_progress" }];
    applyToolComplete(calls, { name: "edit_file", summary: "x", result: "" });
    expect(calls[0]!.status).toBe("in_progress");
  });

  test("a shell tool starting a server shows completed while still in progress", () => {
    for (const summary of ["npm run dev", "cd app && npm start", "Started: bun server.ts"]) {
      expect(displayedToolStatus({ name: "run_shell", summary, status: "in_progress" })).toBe("completed");
    }
    expect(displayedToolStatus({ name: "run_shell", summary: "npm install", status: "in_progress" })).toBe("in_progress");
    // Only shell tools: a file that mentions npm start is still being written.
    expect(displayedToolStatus({ name: "write_file", summary: "README: npm start", status: "in_progress" })).toBe("in_progress");
    expect(displayedToolStatus({ name: "run_shell", summary: "npm test", status: "completed" })).toBe("completed");
  });

  test("icons for the five named tools, a default for the rest", () => {
    for (const name of ["create_boilerplate", "write_file", "edit_file", "run_shell", "run_code"]) expect(toolKind(name)).toBe(name as never);
    expect(toolKind("web_search")).toBe("default");
    expect(toolKind("read_file")).toBe("default");
  });
});
