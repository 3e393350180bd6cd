import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import type { StreamEvent } from "@shared/events/stream";
import { silentLogger } from "../lib/logger";
import { fakePromptTokens, startFakeModelServer, turn, type FakeModelServer } from "../test/fake-model-server";
import { DEFAULT_AGENT_LIMITS } from "./agent-limits";
import type { ChatMessage } from "./chat-message";
import { ContextBudget } from "./context-budget";
import { createModelClient } from "./model-client";
import { ModelTurnError } from "./model-stream";
import { createModelTurns } from "./model-turns";
import { RunUsage } from "./run-usage";
import { createStepWriter } from "./step-writer";

// One model turn at a time against the scripted server, through the real client.
let model: FakeModelServer;
beforeAll(async () => {
  model = await startFakeModelServer();
});
afterAll(() => model.close());
beforeEach(() => model.reset());

/** A conversation far larger than a 4,000-token window: six big tool results after the task. */
function bulky(): ChatMessage[] {
  const list: ChatMessage[] = [
    { role: "system", content: "You are a test." },
    { role: "user", content: "Build the todo app" },
  ];
  for (let i = 0; i < 6; i++) {
    list.push({ role: "assistant", content: "", toolCalls: [{ id: `c${i}`, name: "read_file", arguments: `{"path":"f${i}"}` }] });
    list.push({ role: "tool", toolCallId: `c${i}`, content: "z".repeat(3_000) });
  }
  return list;
}

function setup(messages: ChatMessage[]) {
  const events: StreamEvent[] = [];
  const emit = (e: StreamEvent) => events.push(e);
  const limits = { ...DEFAULT_AGENT_LIMITS, contextTokens: 32_768, maxOutputTokens: 500, backoffBaseMs: 5, idleTimeoutMs: 3_000 };
  const budget = new ContextBudget({ contextTokens: limits.contextTokens, maxOutputTokens: limits.maxOutputTokens, toolsText: "[]" });
  const usage = new RunUsage(budget.meter);
  const input = {
    client: createModelClient({ baseUrl: model.baseUrl, apiKey: "test" }),
    model: "fake-model",
    messages,
    enableReasoning: false,
    limits,
    emit,
    logger: silentLogger,
  };
  const turns = createModelTurns({ input, signal: new AbortController().signal, writer: createStepWriter(emit), budget, usage, toolSpecs: [] });
  const text = () => events.flatMap((e) => (e.type === "chunk" ? [e.content] : [])).join("");
  return { turns, budget, usage, events, text };
}

describe("model turns", () => {
  test("a turn streams its text through the writer and is counted", async () => {
    model.enqueue(turn.text("Hello there."));
    const t = setup([{ role: "user", content: "Hi" }]);
    const reply = await t.turns.ask(1);
    expect(reply.text).toBe("Hello there.");
    expect(t.text()).toBe("Hello there.");
    expect(t.usage.usage?.totalTokens).toBeGreaterThan(0);
  });

  test("a context-length error lowers the window to the one stated, trims, and asks once more", async () => {
    model.mode({ contextWindow: 4_000 });
    model.respondWith((body) =>
      body.tools?.length === 0 && body.messages[0]?.content !== "You are a test." ? turn.text("Read six files.") : turn.text("Fine."),
    );
    const t = setup(bulky());
    const reply = await t.turns.ask(1);
    expect(reply.text).toBe("Fine.");
    expect(t.budget.contextTokens).toBe(4_000);
    const answered = model.requests.at(-1)!;
    expect(fakePromptTokens(answered.body) + 500).toBeLessThanOrEqual(4_000);
  });

  test("a reply to a silently cut prompt is set aside with a notice; the budget is capped and the turn asked again", async () => {
    model.mode({ silentWindow: 4_000 });
    model.respondWith((body) => {
      if (body.messages[0]?.content !== "You are a test.") return turn.text("Read six files."); // the summariser
      const task = body.messages.some((m) => m.role === "user" && m.content === "Build the todo app");
      return turn.text(task ? "Built the todo app." : "What would you like me to build?");
    });
    const t = setup(bulky());
    const reply = await t.turns.ask(1);
    expect(reply.text).toBe("Built the todo app.");
    expect(t.text()).toContain("cut the start of this conversation to fit its context window; asking again");
    expect(t.budget.promptCap).toBeLessThan(4_000);
  });

  test("a second context-length error in the same turn is not retried", async () => {
    model.mode({ contextWindow: 600 });
    model.respondWith(() => turn.text("never"));
    const t = setup([
      { role: "system", content: "s".repeat(6_000) },
      { role: "user", content: "Hi" },
    ]);
    const error = await t.turns.ask(1).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelTurnError);
    expect((error as ModelTurnError).failure.kind).toBe("context_length");
  });
});
