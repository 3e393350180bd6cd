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

  test("an empty command is refused", async () => {
    const w = memoryWorkspace();
    expect((await toolContext(w).call(setWorkflowCommandTool, { command: "  " })).result).toContain("command must not be empty");
    expect(w.workflowCommand()).toBeNull();
  });
});
