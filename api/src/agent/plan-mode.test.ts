import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import type { StreamEvent } from "@shared/events/stream";
import { z } from "zod";
import { startFakeModelServer, turn, type FakeModelServer } from "../test/fake-model-server";
import { DEFAULT_AGENT_LIMITS, runAgent } from "./loop";
import { createModelClient } from "./model-client";
import { offeredTools, PLAN_TOOL_NAMES, toolsForMode } from "./plan-mode";
import { defineTool, type RunToolContext, type Tool } from "./tools/define-tool";
import { allTools } from "./tools/registry";

let model: FakeModelServer;
beforeAll(async () => {
  model = await startFakeModelServer();
});
afterAll(() => model.close());
beforeEach(() => model.reset());

const ran: string[] = [];
const tool = (name: string) =>
  defineTool({
    name,
    description: name,
    input: z.object({ path: z.string() }),
    summary: (i) => i.path,
    async run(input) {
      ran.push(`${name} ${input.path}`);
      return { result: `${name} done` };
    },
  }) as Tool;

async function planRun() {
  const events: StreamEvent[] = [];
  ran.length = 0;
  await runAgent({
    client: createModelClient({ baseUrl: model.baseUrl, apiKey: "test" }),
    model: "fake-model",
    messages: [
      { role: "system", content: "test" },
      { role: "user", content: "Plan it" },
    ],
    tools: toolsForMode([tool("read_file"), tool("write_file")], "plan"),
    toolContext: {} as RunToolContext,
    enableReasoning: false,
    signal: new AbortController().signal,
    limits: { ...DEFAULT_AGENT_LIMITS, backoffBaseMs: 5, idleTimeoutMs: 2_000 },
    emit: (e) => events.push(e),
  });
  return events;
}

describe("plan mode", () => {
  test("offers only the tools that read; every registered writer is hidden", () => {
    const plan = toolsForMode(allTools, "plan");
    expect(offeredTools(plan).map((t) => t.name)).toEqual(allTools.filter((t) => PLAN_TOOL_NAMES.has(t.name)).map((t) => t.name));
    for (const name of ["write_file", "edit_file", "run_shell", "run_code", "run_sql", "create_boilerplate", "restart_app", "set_workflow_command"]) {
      expect(offeredTools(plan).some((t) => t.name === name)).toBe(false);
    }
    expect(toolsForMode(allTools, "build")).toBe(allTools);
  });

  test("the model's request offers no write tool; a write called anyway is refused and not run", async () => {
    model.enqueue(
      turn.toolCalls([
        { name: "read_file", arguments: { path: "a.ts" } },
        { name: "write_file", arguments: { path: "b.ts" } },
      ]),
    );
    model.enqueue(turn.text("- [ ] change b.ts"));
    const events = await planRun();
    expect((model.requests[0]!.body.tools ?? []).map((t) => t.function.name)).toEqual(["read_file"]);
    expect(ran).toEqual(["read_file a.ts"]);
    const refused = events.find((e) => e.type === "tool_complete" && e.name === "write_file");
    expect(refused).toMatchObject({ result: expect.stringContaining("plan mode") });
  });

  test("a write written as text is read as a call and refused, not shown as the answer", async () => {
    model.enqueue(turn.text('<tool_call>{"name": "write_file", "arguments": {"path": "c.ts"}}</tool_call>'));
    model.enqueue(turn.text("- [ ] write c.ts"));
    const events = await planRun();
    expect(ran).toEqual([]);
    expect(events.some((e) => e.type === "tool_complete" && e.name === "write_file" && e.result.includes("Refused"))).toBe(true);
    const text = events.flatMap((e) => (e.type === "chunk" ? [e.content] : [])).join("");
    expect(text).not.toContain("tool_call");
    expect(text).toContain("- [ ] write c.ts");
  });
});
