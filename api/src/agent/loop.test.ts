import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import type { StreamEvent } from "@shared/events/stream";
import { z } from "zod";
import { startFakeModelServer, turn, type FakeModelServer } from "../test/fake-model-server";
import { DEFAULT_AGENT_LIMITS, runAgent, type AgentLimits } from "./loop";
import type { ModelClient } from "./model";
import { AppError } from "../lib/errors";
import { createModelClient } from "./model-client";
import { defineTool, ToolError, type RunToolContext, type Tool } from "./tools/define-tool";

let model: FakeModelServer;
let client: ModelClient;
beforeAll(async () => {
  model = await startFakeModelServer();
  client = createModelClient({ baseUrl: model.baseUrl, apiKey: "test" });
});
afterAll(() => model.close());
beforeEach(() => model.reset());

const ran: { name: string; input: unknown }[] = [];
const noteTool = defineTool({
  name: "note",
  description: "Remember a note",
  input: z.object({ text: z.string() }),
  summary: (i) => i.text,
  async run(input, ctx) {
    ran.push({ name: "note", input });
    ctx.step(`Created note ${input.text}`, "completed");
    return { result: `noted ${input.text}` };
  },
});
const failingTool = defineTool({
  name: "explode",
  description: "Always fails",
  input: z.object({}),
  summary: () => "boom",
  async run() {
    throw new ToolError("the disk is on fire");
  },
});
const slowTool = defineTool({
  name: "slow",
  description: "Waits until stopped",
  input: z.object({}),
  summary: () => "waiting",
  async run(_input, ctx) {
    await new Promise((resolve) => ctx.signal.addEventListener("abort", resolve, { once: true }));
    return { result: "stopped" };
  },
});
const capTool = defineTool({
  name: "run_shell",
  description: "Needs the sandbox, which the account's cap refuses",
  input: z.object({}),
  summary: () => "npm test",
  async run() {
    throw new AppError(429, "rate_limited", "Your account may run 1 sandbox at once and all are busy.");
  },
});
const tools = [noteTool, failingTool, slowTool, capTool] as Tool[];
const toolContext = {} as RunToolContext; // these tools need nothing from it

async function run(
  o: { limits?: Partial<AgentLimits>; enableReasoning?: boolean; modelName?: string; signal?: AbortSignal; beforeFinish?: () => Promise<string | null> } = {},
) {
  const events: StreamEvent[] = [];
  const result = await runAgent({
    client,
    model: o.modelName ?? "fake-model",
    messages: [
      { role: "system", content: "You are a test." },
      { role: "user", content: "Build it" },
    ],
    tools,
    toolContext,
    enableReasoning: o.enableReasoning ?? false,
    signal: o.signal ?? new AbortController().signal,
    limits: { ...DEFAULT_AGENT_LIMITS, backoffBaseMs: 5, idleTimeoutMs: 2_000, ...o.limits },
    emit: (e) => events.push(e),
    beforeFinish: o.beforeFinish,
  });
  const text = events.flatMap((e) => (e.type === "chunk" ? [e.content] : [])).join("");
  const of = <T extends StreamEvent["type"]>(type: T) => events.filter((e): e is Extract<StreamEvent, { type: T }> => e.type === type);
  return { result, events, text, of };
}

describe("agent loop", () => {
  test("text only: chunks as they stream, then done (complete, with usage); stream_options asked for", async () => {
    model.enqueue(turn.steps({ text: "Hello! How can I help?" }, { usage: { prompt_tokens: 10, completion_tokens: 6 } }));
    const r = await run();
    expect(r.text).toBe("Hello! How can I help?");
    expect(r.of("chunk").length).toBeGreaterThan(2);
    expect(r.events.at(-1)).toEqual({ type: "done", status: "complete", usage: { promptTokens: 10, completionTokens: 6, totalTokens: 16 } });
    expect(r.of("error")).toEqual([]);
    const body = model.requests[0]!.body;
    expect(body.stream).toBe(true);
    expect(body.stream_options).toEqual({ include_usage: true });
    expect(body.reasoning_effort).toBeUndefined();
    expect(body.tools?.map((t) => t.function.name)).toEqual(["note", "explode", "slow", "run_shell"]);
    expect(body.tools?.[0]?.function.parameters).toMatchObject({ type: "object", properties: { text: { type: "string" } } });
  });

  test("reasoning deltas (reasoning_content and reasoning) become thinking only when enabled", async () => {
    const script = () => turn.steps({ reasoning: "Let me think. " }, { reasoning: "Done thinking.", field: "reasoning" }, { text: "Answer" });
    model.enqueue(script());
    const on = await run({ enableReasoning: true });
    expect(
      on
        .of("thinking")
        .map((e) => e.content)
        .join(""),
    ).toBe("Let me think. Done thinking.");
    expect(on.text).toBe("Answer");

    model.enqueue(script());
    const off = await run({ enableReasoning: false });
    expect(off.of("thinking")).toEqual([]);
    expect(off.text).toBe("Answer");
  });

  test("OpenAI reasoning models get reasoning_effort from the toggle; others never do", async () => {
    model.enqueue(turn.text("a"), turn.text("b"), turn.text("c"));
    await run({ modelName: "o4-mini", enableReasoning: true });
    await run({ modelName: "gpt-5-mini", enableReasoning: false });
    await run({ modelName: "llama3.1:8b", enableReasoning: true });
    expect(model.requests.map((r) => r.body.reasoning_effort)).toEqual(["high", "low", undefined]);
  });

  test("one tool call with arguments split across many chunks: tool_start, step line, tool_complete, result sent back", async () => {
    ran.length = 0;
    model.enqueue(
      turn.toolCalls([{ id: "call_1", name: "note", arguments: { text: "a fairly long note to split" }, chunkSize: 3 }], "Writing it down."),
      turn.text("All done."),
    );
    const r = await run();
    expect(ran).toEqual([{ name: "note", input: { text: "a fairly long note to split" } }]);
    expect(r.of("tool_start")).toEqual([{ type: "tool_start", name: "note", summary: "a fairly long note to split" }]);
    expect(r.of("tool_complete")).toEqual([
      { type: "tool_complete", name: "note", summary: "a fairly long note to split", result: "noted a fairly long note to split" },
    ]);
    expect(r.text).toBe("Writing it down.\nCreated note a fairly long note to split\n\nAll done.");
    expect(r.of("chunk").find((e) => e.step)).toEqual({ type: "chunk", content: "\nCreated note a fairly long note to split\n", step: "completed" });
    expect(r.of("action")).toEqual([{ type: "action", action: { description: "Created note a fairly long note to split", status: "completed" } }]);
    expect(r.of("actions_completed")).toEqual([
      { type: "actions_completed", actions: [{ description: "Created note a fairly long note to split", status: "completed" }] },
    ]);

    const second = model.requests[1]!.body.messages;
    expect(second.at(-2)).toMatchObject({
      role: "assistant",
      content: "Writing it down.",
      tool_calls: [{ id: "call_1", type: "function", function: { name: "note" } }],
    });
    expect(second.at(-1)).toEqual({ role: "tool", tool_call_id: "call_1", content: "noted a fairly long note to split" });
  });

  test("several tool calls in one reply run in order, each answered by its id", async () => {
    ran.length = 0;
    model.enqueue(
      turn.toolCalls([
        { id: "c1", name: "note", arguments: { text: "one" } },
        { id: "c2", name: "note", arguments: { text: "two" } },
        { id: "c3", name: "note", arguments: { text: "three" } },
      ]),
      turn.text("ok"),
    );
    const r = await run();
    expect(ran.map((x) => (x.input as { text: string }).text)).toEqual(["one", "two", "three"]);
    expect(r.of("tool_complete").map((e) => e.summary)).toEqual(["one", "two", "three"]);
    const sent = model.requests[1]!.body.messages.filter((m) => m.role === "tool");
    expect(sent.map((m) => [m.tool_call_id, m.content])).toEqual([
      ["c1", "noted one"],
      ["c2", "noted two"],
      ["c3", "noted three"],
    ]);
  });

  test("a failing tool, malformed JSON, arguments that do not fit and an unknown tool all go back to the model as errors", async () => {
    model.enqueue(
      turn.toolCalls([
        { id: "f1", name: "explode", arguments: {} },
        { id: "f2", name: "note", arguments: '{"text": "unterminated' },
        { id: "f3", name: "note", arguments: { text: 42 } },
        { id: "f4", name: "teleport", arguments: {} },
      ]),
      turn.text("I see the errors."),
    );
    const r = await run();
    expect(r.result.status).toBe("complete");
    expect(r.text).toContain("I see the errors.");
    const results = model.requests[1]!.body.messages.filter((m) => m.role === "tool").map((m) => String(m.content));
    expect(results[0]).toBe("Error: the disk is on fire");
    expect(results[1]).toContain("not valid JSON");
    expect(results[2]).toContain("invalid arguments for note: text:");
    expect(results[3]).toContain('no tool named "teleport"');
    expect(r.of("tool_complete").map((e) => e.result.startsWith("Error:"))).toEqual([true, true, true, true]);
    expect(r.of("tool_start")[1]).toEqual({ type: "tool_start", name: "note", summary: "(invalid arguments)" });
  });

  test("a tool refused by an account limit (429: every sandbox busy) ends the run with that message, not a retry by the model", async () => {
    model.enqueue(
      turn.toolCalls([
        { id: "c1", name: "run_shell", arguments: {} },
        { id: "c2", name: "note", arguments: { text: "never" } },
      ]),
      turn.text("unreached"),
    );
    const r = await run();
    expect(r.result.status).toBe("failed");
    expect(r.of("error").map((e) => e.message)).toEqual(["Your account may run 1 sandbox at once and all are busy."]);
    expect(r.of("tool_complete")).toHaveLength(1);
    expect(model.requests).toHaveLength(1);
    expect(ran.some((x) => (x.input as { text?: string }).text === "never")).toBe(false);
  });

  test("HTTP 500 before the stream is retried; when it keeps failing the run ends with an error", async () => {
    model.enqueue(turn.http(500), turn.http(502), turn.text("Recovered"));
    const ok = await run();
    expect(ok.text).toBe("Recovered");
    expect(ok.result.status).toBe("complete");
    expect(model.requests).toHaveLength(3);

    model.reset();
    model.enqueue(turn.http(500), turn.http(500), turn.http(500));
    const bad = await run({ limits: { maxRetries: 2 } });
    expect(bad.result.status).toBe("failed");
    expect(bad.of("error")[0]!.message).toMatch(/HTTP 500.*after 3 attempts/);
    expect(bad.events.at(-1)).toMatchObject({ type: "done", status: "failed" });
  });

  test("a 4xx that retrying cannot fix is not retried", async () => {
    model.enqueue(turn.http(401, { error: { message: "Incorrect API key" } }));
    const r = await run();
    expect(model.requests).toHaveLength(1);
    expect(r.of("error")[0]!.message).toContain("Check OPENAI_API_KEY");
  });

  test("429 before the stream: waits as retry-after says, then goes on", async () => {
    model.enqueue(turn.rateLimited(1), turn.text("After the wait"));
    const started = Date.now();
    const r = await run();
    expect(r.text).toBe("After the wait");
    expect(model.requests[1]!.at - model.requests[0]!.at).toBeGreaterThanOrEqual(900);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  test("429 that persists ends with 'rate limited' and the wait; a retry-after longer than allowed is not waited for", async () => {
    model.enqueue(turn.rateLimited(0), turn.rateLimited(0), turn.rateLimited(30));
    const r = await run({ limits: { maxRetries: 2 } });
    expect(r.result.status).toBe("failed");
    expect(r.of("error")[0]!.message).toMatch(/rate limited.*Try again in about 30 s/);

    model.reset();
    model.enqueue(turn.rateLimited(3600));
    const started = Date.now();
    const long = await run({ limits: { maxRetryWaitMs: 60_000 } });
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(model.requests).toHaveLength(1);
    expect(long.of("error")[0]!.message).toMatch(/rate limited.*Try again in about 60 min/);
  });

  test("an error inside the stream before any text is retried; after text it ends the turn, keeping the text", async () => {
    model.enqueue(turn.steps({ streamError: { message: "Rate limit exceeded", code: 429 } }), turn.text("Second try"));
    const retried = await run();
    expect(retried.text).toBe("Second try");
    expect(retried.result.status).toBe("complete");

    model.reset();
    model.enqueue(turn.steps({ text: "Half an ans" }, { streamError: { message: "Internal error", code: 500 } }));
    const cut = await run();
    expect(cut.text).toBe("Half an ans");
    expect(cut.result.status).toBe("failed");
    expect(cut.of("error")[0]!.message).toMatch(/^The model's answer was cut off: the model reported an error: Internal error/);
    expect(model.requests).toHaveLength(1);

    model.reset();
    model.enqueue(turn.steps({ text: "Some text" }, { streamError: { message: "Too many requests", code: 429 } }));
    const limited = await run();
    expect(limited.of("error")[0]!.message).toContain("rate limited");
  });

  test("a connection cut mid-answer twice (the one re-ask cut too) ends the run with an error and keeps the partial text", async () => {
    model.enqueue(turn.steps({ text: "The first half of " }, { cut: true }), turn.steps({ text: "Again half" }, { cut: true }));
    const r = await run();
    expect(r.text).toStartWith("The first half of ");
    expect(r.text).toEndWith("Again half");
    expect(r.result.status).toBe("failed");
    expect(r.of("error")[0]!.message).toMatch(/^The model's answer was cut off: the connection to the model was lost/);
  });

  test("a model that goes silent is ended by the idle time-out", async () => {
    model.enqueue(turn.steps({ text: "I will now" }, { hang: true }));
    const started = Date.now();
    const r = await run({ limits: { idleTimeoutMs: 300 } });
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(r.text).toBe("I will now");
    expect(r.of("error")[0]!.message).toContain("stopped sending data");
  });

  test("the step cap ends a model that never stops calling tools, after running the last step's tools", async () => {
    ran.length = 0;
    model.respondWith((_body, i) => turn.toolCalls([{ name: "note", arguments: { text: `n${i}` } }]));
    const r = await run({ limits: { maxSteps: 3 } });
    expect(model.requests).toHaveLength(3);
    expect(ran).toHaveLength(3);
    expect(r.result.status).toBe("failed");
    expect(r.of("error")[0]!.message).toMatch(/^Stopped after 3 steps/);
  });

  test("the token budget and the time budget end runaway runs with a clear message", async () => {
    model.respondWith(() => turn.steps({ toolCalls: [{ name: "note", arguments: { text: "x" } }] }, { usage: { prompt_tokens: 600, completion_tokens: 100 } }));
    const tokens = await run({ limits: { maxRunTokens: 1_000 } });
    expect(model.requests).toHaveLength(2);
    expect(tokens.of("error")[0]!.message).toMatch(/budget of 1,000 tokens/);
    expect(tokens.result.usage).toEqual({ promptTokens: 1200, completionTokens: 200, totalTokens: 1400 });

    model.reset();
    model.respondWith(() => turn.steps({ delayMs: 50 }, { toolCalls: [{ name: "note", arguments: { text: "x" } }] }));
    const time = await run({ limits: { maxRunMs: 300 } });
    expect(time.result.status).toBe("failed");
    expect(time.of("error")[0]!.message).toMatch(/time limit/);
  });

  test("aborting (Stop) ends the run as stopped, during a tool or the model's answer, without an error event", async () => {
    const stop = new AbortController();
    model.enqueue(turn.toolCalls([{ name: "slow", arguments: {} }]));
    setTimeout(() => stop.abort(), 100);
    const r = await run({ signal: stop.signal });
    expect(r.result.status).toBe("stopped");
    expect(r.of("error")).toEqual([]);
    expect(r.events.at(-1)).toMatchObject({ type: "done", status: "stopped" });

    const stop2 = new AbortController();
    model.enqueue(turn.steps({ text: "Partial" }, { delayMs: 2_000 }, { text: " never" }));
    setTimeout(() => stop2.abort(), 150);
    const r2 = await run({ signal: stop2.signal });
    expect(r2.text).toBe("Partial");
    expect(r2.result.status).toBe("stopped");
  });

  test("beforeFinish: a check that finds something sends it back to the model as a step, and the run goes on", async () => {
    const checks = ["The app fails to build: src/App.tsx imports ./missing", null];
    model.enqueue(turn.text("Done!"), turn.text("Fixed the import."));
    const r = await run({ beforeFinish: async () => checks.shift() ?? null });
    expect(r.result.status).toBe("complete");
    expect(model.requests).toHaveLength(2);
    expect(model.requests[1]!.body.messages.slice(-2)).toEqual([
      { role: "assistant", content: "Done!" },
      { role: "user", content: "The app fails to build: src/App.tsx imports ./missing" },
    ]);
    expect(r.text).toBe("Done!Fixed the import.");
  });
});
