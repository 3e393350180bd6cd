import { describe, expect, test } from "bun:test";
import { memoryWorkspace, toolContext } from "../../test/memory-workspace";
import { setWorkflowCommandTool } from "./set-workflow-command";

describe("set_workflow_command", () => {
  test("records the project's workflowCommand and streams 'Configured …'", async () => {
    const w = memoryWorkspace();
    const p = toolContext(w);
    const out = await p.call(setWorkflowCommandTool, { command: "  node server.js " });
    expect(out.ok).toBe(true);
    expect(out.summary).toBe("node server.js");
    expect(p.steps).toEqual([{ line: "Configured workflow: node server.js", status: "completed" }]);
    expect(w.workflowCommand()).toBe("node server.js");
  });

  test("an optional port is recorded with it; a port out of range is refused", async () => {
    const w = memoryWorkspace();
    const out = await toolContext(w).call(setWorkflowCommandTool, { command: "node server.js", port: 3000 });
    expect(out.result).toContain("Its port is 3000.");
    expect([w.workflowCommand(), w.workflowPort()]).toEqual(["node server.js", 3000]);
    expect((await toolContext(w).call(setWorkflowCommandTool, { command: "x", port: 70_000 })).ok).toBe(false);
  });

  test("an empty command is refused", async () => {
    const w = memoryWorkspace();
    expect((await toolContext(w).call(setWorkflowCommandTool, { command: "  " })).result).toContain("command must not be empty");
    expect(w.workflowCommand()).toBeNull();
  });
});
