import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { toolHarness } from "../../test/tool-harness";
import { setWorkflowCommandTool } from "./set-workflow-command";

let h: Awaited<ReturnType<typeof toolHarness>>;
beforeAll(async () => {
  h = await toolHarness();
}, 60_000);
afterAll(() => h.close());

describe("set_workflow_command", () => {
  test("records the project's workflowCommand and streams 'Configured …'", async () => {
    const p = await h.project();
    const out = await p.call(setWorkflowCommandTool, { command: "  node server.js " });
    expect(out.ok).toBe(true);
    expect(out.summary).toBe("node server.js");
    expect(p.steps).toEqual([{ line: "Configured workflow: node server.js", status: "completed" }]);
    const project = (await (await p.user.request("GET", `/api/projects/${p.projectId}`)).json()) as { workflowCommand: string };
    expect(project.workflowCommand).toBe("node server.js");
  });

  test("an empty command is refused", async () => {
    const p = await h.project();
    expect((await p.call(setWorkflowCommandTool, { command: "  " })).result).toContain("command must not be empty");
  });
});
