/**
 * The agent against the behaviours of real models and servers, played by the scripted model server and
 * driven through the real `openai` SDK: tool calls written as text, inline <think>, servers that want
 * reasoning back, replies cut by the output limit, small context windows, dropped connections, and a
 * model that repeats a failing call.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { silentLogger } from "../lib/logger";
import { fakePromptTokens, startFakeModelServer, turn, type FakeModelServer } from "../test/fake-model-server";
import { scriptedAgent } from "../test/scripted-agent";
import type { ChatMessage } from "./chat-message";

let model: FakeModelServer;
beforeAll(async () => {
  model = await startFakeModelServer();
});
afterAll(() => model.close());
beforeEach(() => model.reset());

const { run } = scriptedAgent(() => model);

describe("tool calls written as text", () => {
  const formats: [string, string][] = [
    ["bare JSON", '{"name": "write_file", "arguments": {"path": "a.txt", "content": "from text"}}'],
    ["Hermes/Qwen <tool_call>", 'I will write it.\n<tool_call>\n{"name": "write_file", "arguments": {"path": "a.txt", "content": "from text"}}\n</tool_call>'],
    ["Qwen3-Coder <function=…>", "<function=write_file>\n<parameter=path>\na.txt\n</parameter>\n<parameter=content>\nfrom text\n</parameter>\n</function>"],
    ["fenced json", 'Writing:\n```json\n{"name": "write_file", "arguments": {"path": "a.txt", "content": "from text"}}\n```'],
  ];
  for (const [format, reply] of formats) {
    test(`${format}: executed as a tool call, not shown as the answer, sent back as a structured call`, async () => {
      model.enqueue(turn.steps({ text: reply, chunkSize: 3 }), turn.text("Done."));
      const r = await run();
      expect(r.result.status).toBe("complete");
      expect(r.files.get("a.txt")).toBe("from text");
      expect(r.text).not.toContain("write_file");
      expect(r.text).not.toMatch(/<tool_call>|<function=|```json|"arguments"/);
      expect(r.text).toEndWith("Done.");
      const second = model.requests[1]!.body.messages;
      expect(second.at(-2)).toMatchObject({ role: "assistant", tool_calls: [{ type: "function", function: { name: "write_file" } }] });
      expect(String(second.at(-2)!.content ?? "")).not.toContain("write_file");
      expect(second.at(-1)).toMatchObject({ role: "tool", content: "Created a.txt (9 bytes)." });
    });
  }

  test("JSON naming a tool that was not offered is an ordinary answer", async () => {
    const reply = '{"name": "delete_everything", "arguments": {}}';
    model.enqueue(turn.text(reply));
    const r = await run();
    expect(r.text).toBe(reply);
    expect(model.requests).toHaveLength(1);
  });
});

describe("reasoning", () => {
  test("inline <think> streams as thinking (toggle on) and never reaches the answer; toggle off hides it too", async () => {
    const script = () => turn.steps({ text: "<think>\nThe user wants a greeting.</think>\nHello there!", chunkSize: 4 });
    model.enqueue(script());
    const on = await run({ enableReasoning: true });
    expect(on.thinking).toBe("The user wants a greeting.");
    expect(on.text).toBe("Hello there!");

    model.enqueue(script());
    const off = await run({ enableReasoning: false });
    expect(off.thinking).toBe("");
    expect(off.text).toBe("Hello there!");
  });

  test("a server that rejects a tool-call turn without its reasoning_content still completes the run (toggle on or off)", async () => {
    for (const enableReasoning of [true, false]) {
      model.reset();
      model.mode({ requireReasoningContent: true });
      model.enqueue(
        turn.steps({ reasoning: "I should write the file." }, { toolCalls: [{ name: "write_file", arguments: { path: "r.txt", content: "x" } }] }),
        turn.text("Written."),
      );
      const r = await run({ enableReasoning });
      expect(r.errors).toEqual([]);
      expect(r.result.status).toBe("complete");
      // The first follow-up is refused without it; the second carries it.
      expect(model.requests.at(-1)!.body.messages.find((m) => m.role === "assistant")).toMatchObject({ reasoning_content: "I should write the file." });
    }
  });

  test("max_tokens is always sent (MODEL_MAX_OUTPUT_TOKENS)", async () => {
    model.enqueue(turn.text("ok"));
    await run({ limits: { maxOutputTokens: 1234 } });
    expect(model.requests[0]!.body.max_tokens).toBe(1234);
  });

  test("a reply cut by the length limit mid tool call leads to smaller writes, not a blind retry or a loop", async () => {
    model.enqueue(
      {
        kind: "stream",
        steps: [{ toolCalls: [{ name: "write_file", arguments: '{"path": "big.ts", "content": "line 1\\nline 2\\nli' }] }],
        finishReason: "length",
      },
      turn.toolCalls([{ name: "write_file", arguments: { path: "big.ts", content: "line 1\n" } }]),
      turn.toolCalls([{ name: "write_file", arguments: { path: "big.ts", content: "line 2\n", append: true } }]),
      turn.text("Written in two parts."),
    );
    const r = await run({ limits: { maxOutputTokens: 50 } });
    expect(r.result.status).toBe("complete");
    expect(r.files.get("big.ts")).toBe("line 1\nline 2\n");
    const second = model.requests[1]!.body.messages;
    expect(second.at(-1)).toMatchObject({ role: "user" });
    expect(String(second.at(-1)!.content)).toContain("cut off at the output limit (50 tokens) while writing a call to write_file");
    expect(String(second.at(-1)!.content)).toContain("smaller pieces");
    // The cut call was never sent back as a call (no tool result for it) and never run.
    expect(second.some((m) => m.role === "tool")).toBe(false);
    expect(model.requests).toHaveLength(4);
  });

  test("a tool call written as text and cut by the length limit is not shown and gets the same 'smaller pieces' step", async () => {
    model.enqueue(
      {
        kind: "stream",
        steps: [{ text: 'Writing.\n<tool_call>\n{"name": "write_file", "arguments": {"path": "big.ts", "content": "li' }],
        finishReason: "length",
      },
      turn.text("I will split it."),
    );
    const r = await run();
    expect(r.text).toBe("Writing.\n\nI will split it.");
    expect(r.text).not.toContain("tool_call");
    expect(String(model.requests[1]!.body.messages.at(-1)!.content)).toContain("cut off at the output limit");
  });

  test("replies cut at the output limit again and again stop the run with advice instead of looping", async () => {
    model.respondWith(() => ({ kind: "stream", steps: [{ toolCalls: [{ name: "write_file", arguments: '{"path": "x' }] }], finishReason: "length" }));
    const r = await run();
    expect(r.result.status).toBe("failed");
    expect(model.requests).toHaveLength(3);
    expect(r.errors[0]).toContain("cut by its output limit 3 times in a row");
  });
});

describe("context that fits", () => {
  test("an 8k window that answers context-length errors: a 30-step run with large files completes", async () => {
    model.mode({ contextWindow: 8_192 });
    let steps = 0;
    model.respondWith((body) => {
      // Summary requests come without tools.
      if (!body.tools?.length) return turn.text("Wrote files f1 … so far; all succeeded; continue with the next file.");
      steps++;
      if (steps > 30) return turn.text("All 30 files written.");
      // Models narrate each step: text that no shortening removes, so older steps must be summarised.
      const narration = `Step ${steps}: now writing f${steps}.txt, the next part of the app. `.repeat(10);
      return turn.toolCalls([{ name: "write_file", arguments: { path: `f${steps}.txt`, content: `${steps} `.repeat(700) } }], narration);
    });
    const r = await run({ limits: { contextTokens: 8_192, maxOutputTokens: 1_024, maxSteps: 40 } });
    expect(r.errors).toEqual([]);
    expect(r.result.status).toBe("complete");
    expect(r.files.size).toBe(30);
    expect(r.text).toContain("All 30 files written.");
    expect(r.events).toContainEqual({ type: "action", action: { description: "Summarised earlier steps to fit the context window", status: "completed" } });
    const answered = model.requests.filter((q) => fakePromptTokens(q.body) + Number(q.body.max_tokens) <= 8_192);
    expect(answered.length).toBeGreaterThanOrEqual(31);
    // Old write_file contents were shortened (path kept), and older steps were summarised.
    const last = model.requests.at(-1)!.body.messages;
    expect(JSON.stringify(last)).toContain("content omitted to save space");
    expect(JSON.stringify(last)).toContain("Summary of the earlier steps of this run");
  });

  test("a window smaller than configured: the context-length error is answered by trimming harder and asking once more", async () => {
    model.mode({ contextWindow: 4_000 });
    const bulky: ChatMessage[] = [
      { role: "system", content: "You are a test." },
      { role: "user", content: "Build it" },
    ];
    for (let i = 0; i < 6; i++) {
      bulky.push({ role: "assistant", content: "", toolCalls: [{ id: `c${i}`, name: "read_file", arguments: `{"path":"f${i}"}` }] });
      bulky.push({ role: "tool", toolCallId: `c${i}`, content: "z".repeat(3_000) });
    }
    model.respondWith((body) => (body.tools?.length ? turn.text("Fine.") : turn.text("Read six files.")));
    const r = await run({ messages: bulky, limits: { contextTokens: 32_768, maxOutputTokens: 500 } });
    expect(r.errors).toEqual([]);
    expect(r.result.status).toBe("complete");
    expect(model.requests[0]!.body.tools?.length).toBeGreaterThan(0);
    expect(model.requests.length).toBeGreaterThanOrEqual(2);
    expect(fakePromptTokens(model.requests.at(-1)!.body) + 500).toBeLessThanOrEqual(4_000);
  });
});

describe("a server that silently cuts the prompt (Ollama running a smaller window than the app assumes)", () => {
  /** A conversation far larger than the server's window: twelve big tool results after the user's task. */
  const bulky = (): ChatMessage[] => {
    const list: ChatMessage[] = [
      { role: "system", content: "You are a test." },
      { role: "user", content: "Build the todo app" },
    ];
    for (let i = 0; i < 12; i++) {
      list.push({ role: "assistant", content: "", toolCalls: [{ id: `c${i}`, name: "read_file", arguments: `{"path":"f${i}"}` }] });
      list.push({ role: "tool", toolCallId: `c${i}`, content: "z".repeat(3_000) });
    }
    return list;
  };
  const warnings = () => {
    const seen: string[] = [];
    return { seen, logger: { ...silentLogger, warn: (msg: string) => void seen.push(msg) } };
  };

  test("the cut is seen in the reply's usage: its answer is set aside, the run trims to what the server took and asks once more", async () => {
    model.mode({ silentWindow: 4_000 });
    // The model answers from what it was given: without the start of the conversation it does not know the task.
    model.respondWith((body) => {
      const task = body.messages.some((m) => m.role === "user" && m.content === "Build the todo app");
      return turn.text(task ? "Built the todo app." : "What would you like me to build?");
    });
    const log = warnings();
    const r = await run({ messages: bulky(), limits: { contextTokens: 32_768, maxOutputTokens: 500 }, logger: log.logger });
    expect(r.errors).toEqual([]);
    expect(r.result.status).toBe("complete");
    expect(model.requests).toHaveLength(2);
    // The first request was cut by the server; the second fits its window whole.
    expect(model.requests[0]!.seen).toBeDefined();
    expect(fakePromptTokens(model.requests[1]!.body)).toBeLessThanOrEqual(4_000);
    expect(model.requests[1]!.seen).toBeUndefined();
    expect(r.text).toContain("cut the start of this conversation to fit its context window; asking again");
    expect(r.text).toEndWith("Built the todo app.");
    // One warning, naming the settings that fix it.
    const cut = log.seen.filter((w) => w.includes("silently cut"));
    expect(cut).toHaveLength(1);
    expect(cut[0]).toContain("OLLAMA_CONTEXT_LENGTH");
    expect(cut[0]).toContain("MODEL_CONTEXT_TOKENS");
  });

  test("later steps of the run stay inside what the server took, without asking twice", async () => {
    model.mode({ silentWindow: 4_000 });
    let step = 0;
    model.respondWith((body) => {
      if (!body.messages.some((m) => m.role === "user" && m.content === "Build the todo app")) return turn.text("What would you like me to build?");
      step++;
      return step <= 3 ? turn.toolCalls([{ name: "read_file", arguments: { path: "big.txt" } }]) : turn.text("Built the todo app.");
    });
    const r = await run({ messages: bulky(), limits: { contextTokens: 32_768, maxOutputTokens: 500 }, files: { "big.txt": "y".repeat(3_000) } });
    expect(r.result.status).toBe("complete");
    // The first request, its retry, then one per step: no step after the first was cut.
    expect(model.requests).toHaveLength(5);
    expect(model.requests.slice(1).map((q) => q.seen)).toEqual([undefined, undefined, undefined, undefined]);
  });

  test("usage below even what a cut keeps (cached tokens left out, a scripted count) is not taken for a cut", async () => {
    // Every reply reports 50 prompt tokens, however long the prompt.
    const usage = { usage: { prompt_tokens: 50, completion_tokens: 5 } };
    model.enqueue(turn.steps({ toolCalls: [{ name: "read_file", arguments: { path: "big.txt" } }] }, usage), turn.steps({ text: "Done." }, usage));
    const r = await run({ messages: bulky(), limits: { contextTokens: 32_768, maxOutputTokens: 500 }, files: { "big.txt": "y".repeat(3_000) } });
    expect(r.result.status).toBe("complete");
    expect(r.text).toBe("Done.");
    // No retry, and nothing trimmed toward the 50 tokens reported.
    expect(model.requests).toHaveLength(2);
    expect(model.requests[1]!.body.messages.filter((m) => m.content === "z".repeat(3_000))).toHaveLength(12);
  });
});

describe("stuck detection and dropped connections", () => {
  test("the same failing call three times in a row stops the run as stuck, naming it", async () => {
    model.respondWith(() => turn.toolCalls([{ name: "edit_file", arguments: { path: "a.ts", edits: [{ search: "nope", replace: "x" }] } }]));
    const r = await run({ files: { "a.ts": "const a = 1;\n" } });
    expect(r.result.status).toBe("failed");
    expect(model.requests).toHaveLength(3);
    expect(r.errors[0]).toMatch(/^The agent was stuck: the same edit_file call failed 3 times in a row \(/);
  });

  test("the same error three rounds running (different calls) stops the run as stuck", async () => {
    model.respondWith((_b, i) => turn.toolCalls([{ name: "read_file", arguments: { path: `missing-${i}.ts` } }]));
    const r = await run();
    expect(r.result.status).toBe("failed");
    expect(model.requests.length).toBeLessThanOrEqual(4);
    expect(r.errors[0]).toContain("The agent was stuck");
  });

  test("a connection dropped after text began is asked again once from the last complete step", async () => {
    model.enqueue(turn.steps({ text: "Working on it" }, { cut: true }), turn.text("Working on it. Done."));
    const r = await run();
    expect(r.result.status).toBe("complete");
    expect(r.text).toContain("The connection to the model dropped; asking again.");
    expect(r.text).toEndWith("Working on it. Done.");
    expect(model.requests[1]!.body.messages).toEqual(model.requests[0]!.body.messages);

    model.reset();
    model.enqueue(turn.steps({ text: "One" }, { cut: true }), turn.steps({ text: "Two" }, { cut: true }));
    const twice = await run();
    expect(twice.result.status).toBe("failed");
    expect(twice.errors[0]).toMatch(/^The model's answer was cut off: the connection to the model was lost/);
  });
});
