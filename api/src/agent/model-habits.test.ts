/**
 * Habits of real models and servers that the agent must cope with (issue 23, items 4 and 6), played by the
 * scripted model server through the real `openai` SDK: edits written with the wrong punctuation or already
 * applied, lazy rewrites, and tool calls sent the way real servers stream them.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { startFakeModelServer, turn, type FakeModelServer } from "../test/fake-model-server";
import { textToolCalls, type TextCallForm } from "../test/text-tool-calls";
import { scriptedAgent } from "../test/scripted-agent";

let model: FakeModelServer;
beforeAll(async () => {
  model = await startFakeModelServer();
});
afterAll(() => model.close());
beforeEach(() => model.reset());

const { run, toolResults, client } = scriptedAgent(() => model);

describe("edits that land", () => {
  const edit = (path: string, search: string, replace: string) => turn.toolCalls([{ name: "edit_file", arguments: { path, search, replace } }]);

  test("curly quotes, typographic dashes and NBSP in the search still match the file's plain punctuation", async () => {
    const file = 'const title = "Todo list";\n// loads items - fast\nconst gap = "a b";\n';
    model.enqueue(
      edit("a.ts", "const title = \u201CTodo list\u201D;", 'const title = "My todos";'),
      edit("a.ts", "// loads items \u2014 fast", "// loads items quickly"),
      edit("a.ts", 'const gap = "a\u00A0b";', 'const gap = "a-b";'),
      turn.text("Done."),
    );
    const r = await run({ files: { "a.ts": file } });
    expect(toolResults().filter((t) => t.startsWith("Error"))).toEqual([]);
    expect(r.files.get("a.ts")).toBe('const title = "My todos";\n// loads items quickly\nconst gap = "a-b";\n');
  });

  test("a block of three or more lines is placed by its first and last lines when a middle line was misremembered", async () => {
    const file = "function total(items) {\n  let sum = 0;\n  for (const item of items) sum += item.price;\n  return sum;\n}\n\nexport { total };\n";
    const search = "function total(items) {\n  let sum = 0;\n  for (const it of items) sum += it.price;\n  return sum;\n}";
    const replace = "function total(items) {\n  return items.reduce((s, i) => s + i.price, 0);\n}";
    model.enqueue(edit("t.js", search, replace), turn.text("Done."));
    const r = await run({ files: { "t.js": file } });
    expect(r.files.get("t.js")).toBe(`${replace}\n\nexport { total };\n`);
    expect(toolResults()[0]).toContain("matched by its first and last lines");
  });

  test("an edit whose replacement is already in the file (and its search is not) is reported as applied", async () => {
    model.enqueue(edit("a.ts", "const a = 1;", "const a = 2;"), turn.text("Done."));
    const r = await run({ files: { "a.ts": "const a = 2;\n" } });
    expect(r.files.get("a.ts")).toBe("const a = 2;\n");
    expect(toolResults()[0]).not.toContain("Error");
    expect(toolResults()[0]).toContain("already");
  });

  test("an ambiguous match names the candidate lines with their numbers", async () => {
    model.enqueue(edit("a.ts", "  count++;", "  count += 2;"), turn.text("Done."));
    const r = await run({ files: { "a.ts": "function a() {\n  count++;\n}\nfunction b() {\n  count++;\n}\n" } });
    expect(r.files.get("a.ts")).toContain("count++");
    const result = toolResults()[0]!;
    expect(result).toContain("2 times");
    expect(result).toMatch(/\b2\t {2}count\+\+;/);
    expect(result).toMatch(/\b5\t {2}count\+\+;/);
  });

  test("after the second failed edit of the same file the model is advised to rewrite it with write_file", async () => {
    model.enqueue(edit("a.ts", "nothing like it", "x"), edit("a.ts", "still nothing", "y"), turn.text("Giving up."));
    await run({ files: { "a.ts": "const a = 1;\n" } });
    const [first, second] = toolResults();
    expect(first).not.toContain("write_file");
    expect(second).toContain("failed 2 times");
    expect(second).toContain("write_file");
  });

  const big = Array.from({ length: 60 }, (_, i) => `export const value${i} = ${i}; // a line of real code`).join("\n");
  const lazy: [string, string][] = [
    ["rest of the code", "export const value0 = 0;\n// ... rest of the code ...\n"],
    ["content omitted", "export const value0 = 0;\n/* content omitted for brevity */\n"],
    ["existing code", "// ... existing code ...\nexport const extra = 1;\n"],
    ["the agent's own history stub", "[2900 bytes written; content omitted to save space, read_file shows it]"],
  ];
  for (const [what, content] of lazy) {
    test(`a write holding a placeholder (${what}) that is much shorter than the file is refused`, async () => {
      model.enqueue(turn.toolCalls([{ name: "write_file", arguments: { path: "big.ts", content } }]), turn.text("Done."));
      const r = await run({ files: { "big.ts": big } });
      expect(r.files.get("big.ts")).toBe(big);
      expect(toolResults()[0]).toStartWith("Error");
      expect(toolResults()[0]).toContain("placeholder");
    });
  }

  test("a placeholder phrase in a new file, or in a rewrite of similar length, is written", async () => {
    const note = "// TODO: the rest of the code goes here later\n";
    model.enqueue(
      turn.toolCalls([{ name: "write_file", arguments: { path: "new.ts", content: note } }]),
      turn.toolCalls([{ name: "write_file", arguments: { path: "big.ts", content: `${big}\n${note}` } }]),
      turn.text("Done."),
    );
    const r = await run({ files: { "big.ts": big } });
    expect(r.files.get("new.ts")).toBe(note);
    expect(r.files.get("big.ts")).toBe(`${big}\n${note}`);
  });
});

describe("the wire as real servers send it", () => {
  const write = { name: "write_file", arguments: { path: "a.txt", content: "hello" } };

  test("a tool name repeated in every chunk yields one call", async () => {
    model.mode({ repeatToolName: true });
    model.enqueue(turn.toolCalls([write]), turn.text("Done."));
    const r = await run();
    expect(r.files.get("a.txt")).toBe("hello");
    expect(model.requests[1]!.body.messages.at(-2)).toMatchObject({ tool_calls: [{ function: { name: "write_file" } }] });
  });

  test("complete arguments repeated in every chunk yield one call with them once", async () => {
    model.mode({ repeatToolArguments: true });
    model.enqueue(turn.toolCalls([write]), turn.text("Done."));
    const r = await run();
    expect(r.files.get("a.txt")).toBe("hello");
    expect(toolResults()[0]).toBe("Created a.txt (5 bytes).");
  });

  test("raw newlines inside JSON strings are repaired", async () => {
    model.enqueue(turn.toolCalls([{ name: "write_file", arguments: '{"path": "a.txt", "content": "line 1\nline 2\n\tend"}' }]), turn.text("Done."));
    const r = await run();
    expect(r.files.get("a.txt")).toBe("line 1\nline 2\n\tend");
  });

  test("arrays, numbers and booleans sent as strings are coerced to the tool's schema", async () => {
    const edits = JSON.stringify([{ search: "a = 1", replace: "a = 2" }]);
    model.enqueue(
      turn.toolCalls([{ name: "edit_file", arguments: { path: "a.ts", edits } }]),
      turn.toolCalls([{ name: "write_file", arguments: { path: "a.ts", content: "// more\n", append: "true" } }]),
      turn.toolCalls([{ name: "read_file", arguments: { path: "a.ts", startLine: "2", endLine: "2" } }]),
      turn.text("Done."),
    );
    const r = await run({ files: { "a.ts": "const a = 1;\n" } });
    expect(r.files.get("a.ts")).toBe("const a = 2;\n// more\n");
    const results = toolResults();
    expect(results.filter((t) => t.startsWith("Error"))).toEqual([]);
    expect(results[2]).toContain("// more");
  });

  test("arguments that cannot be repaired are still refused with the reason", async () => {
    model.enqueue(turn.toolCalls([{ name: "write_file", arguments: { path: "a.ts", content: "x", append: "perhaps" } }]), turn.text("Done."));
    const r = await run();
    expect(r.files.has("a.ts")).toBe(false);
    expect(toolResults()[0]).toStartWith("Error: invalid arguments for write_file: append:");
  });

  test("a lone </think> (R1-distill, QwQ templates: the opening tag is in the prompt) splits reasoning from the answer", async () => {
    const script = () => turn.steps({ text: "The user wants a greeting.\n</think>\n\nHello there!", chunkSize: 4 });
    model.enqueue(script());
    const r1 = "DeepSeek-R1-Distill-Qwen-7B";
    const on = await run({ enableReasoning: true, model: r1 });
    expect(on.thinking).toBe("The user wants a greeting.\n");
    expect(on.text).toBe("\nHello there!".trimStart());
    model.enqueue(script());
    const off = await run({ model: r1 });
    expect(off.thinking).toBe("");
    expect(off.text).toBe("Hello there!");
  });

  const forms: TextCallForm[] = ["mistral", "mistral-args", "json-array", "deepseek", "deepseek-v31", "pythonic", "python-tag"];
  for (const form of forms) {
    test(`tool calls written in the ${form} text form are run, not shown, and sent back as structured calls`, async () => {
      const calls = [
        { name: "write_file", arguments: { path: "a.txt", content: 'say "hi"\nbye' } },
        { name: "write_file", arguments: { path: "b.txt", content: "b", append: false } },
      ];
      model.enqueue(turn.steps({ text: `On it.\n${textToolCalls(form, calls)}`, chunkSize: 3 }), turn.text("Done."));
      const r = await run();
      expect(r.result.status).toBe("complete");
      expect(r.files.get("a.txt")).toBe('say "hi"\nbye');
      expect(r.files.get("b.txt")).toBe("b");
      expect(r.text.replace(/\s+/g, " ")).toBe("On it. Done.");
      const second = model.requests[1]!.body.messages;
      expect(second.find((m) => m.role === "assistant")).toMatchObject({
        tool_calls: [{ function: { name: "write_file" } }, { function: { name: "write_file" } }],
      });
      expect(toolResults()).toHaveLength(2);
    });
  }

  test("a text-form call naming a tool that was not offered, or mixed with one, stays text", async () => {
    for (const form of forms) {
      model.reset();
      const reply = textToolCalls(form, [
        { name: "write_file", arguments: { path: "a.txt", content: "x" } },
        { name: "delete_everything", arguments: {} },
      ]);
      model.enqueue(turn.steps({ text: reply, chunkSize: 4 }));
      const r = await run();
      expect([form, r.text]).toEqual([form, reply]);
      expect(r.files.has("a.txt")).toBe(false);
    }
  });

  for (const server of ["ollama", "vllm"] as const) {
    test(`a server that refuses tools (${server}) gets them described in the prompt once, calls read from text, remembered for the model`, async () => {
      model.mode({ refusesTools: server });
      const shared = client();
      model.enqueue(turn.text('<tool_call>\n{"name": "write_file", "arguments": {"path": "a.txt", "content": "hello"}}\n</tool_call>'), turn.text("Done."));
      const r = await run({ client: shared });
      expect(r.errors).toEqual([]);
      expect(r.result.status).toBe("complete");
      expect(r.files.get("a.txt")).toBe("hello");
      expect(model.requests[0]!.body.tools?.length).toBeGreaterThan(0);
      const fallback = model.requests.slice(1).map((q) => q.body);
      expect(fallback.every((b) => b.tools === undefined)).toBe(true);
      const system = String(fallback[0]!.messages[0]!.content);
      expect(system).toContain("write_file");
      expect(system).toContain("<tool_call>");
      // The call and its result go back as text the template can show: no tool roles, no tool_calls.
      const third = fallback[1]!.messages;
      expect(third.some((m) => m.role === "tool" || m.tool_calls)).toBe(false);
      expect(String(third.at(-2)!.content)).toContain('"name":"write_file"');
      expect(String(third.at(-1)!.content)).toContain("Created a.txt");

      model.requests.length = 0;
      model.enqueue(turn.text("Hi again."));
      await run({ client: shared });
      expect(model.requests).toHaveLength(1);
      expect(model.requests[0]!.body.tools).toBeUndefined();
    });
  }

  test("reasoning that uses the whole output budget is asked again with more room, and its answer stands", async () => {
    model.enqueue(turn.thinksToTheLimit(), turn.text("Hello there!"));
    const r = await run({ enableReasoning: true, limits: { maxOutputTokens: 2_000, contextTokens: 32_768 } });
    expect(r.result.status).toBe("complete");
    expect(r.text.trim()).toBe("Hello there!");
    expect(model.requests[0]!.body.max_tokens).toBe(2_000);
    expect(model.requests[1]!.body.max_tokens).toBeGreaterThanOrEqual(4_000);
    expect(r.steps.join("\n")).toContain("more room");
  });

  test("reasoning that uses the whole budget again, or with no room to grow, fails naming MODEL_MAX_OUTPUT_TOKENS and never completes empty", async () => {
    model.enqueue(turn.thinksToTheLimit(), turn.thinksToTheLimit());
    const twice = await run({ limits: { maxOutputTokens: 2_000 } });
    expect(twice.result.status).toBe("failed");
    expect(twice.errors[0]).toContain("MODEL_MAX_OUTPUT_TOKENS");
    expect(model.requests).toHaveLength(2);

    model.reset();
    model.enqueue(turn.thinksToTheLimit());
    const full = await run({ limits: { maxOutputTokens: 4_000, contextTokens: 4_500 } });
    expect(full.result.status).toBe("failed");
    expect(full.errors[0]).toContain("MODEL_MAX_OUTPUT_TOKENS");
    expect(model.requests).toHaveLength(1);
  });

  test("OpenAI reasoning models get at least 16,384 output tokens with reasoning on, the setting with it off", async () => {
    model.enqueue(turn.text("a"), turn.text("b"));
    await run({ model: "o4-mini", enableReasoning: true, limits: { maxOutputTokens: 4_096 } });
    await run({ model: "o4-mini", enableReasoning: false, limits: { maxOutputTokens: 4_096 } });
    expect(model.requests.map((q) => q.body.max_completion_tokens)).toEqual([16_384, 4_096]);
  });

  const plain = [
    "[1, 2, 3]",
    '[{"name": "Ada", "age": 36}]',
    "[note(that)] is how footnotes look",
    '[TOOL_CALLS][{"name": "delete_everything", "arguments": {}}]',
    "[see the docs](https://example.com)",
    "[read_file](docs/tools.md) is the tool that reads",
    'Call it as read_file(path="a.ts") when you need it.',
    "[write_file(path) and read_file(path)] are the two you need",
    '[{"name": "write_file", "role": "tool"}]',
  ];
  for (const reply of plain) {
    test(`plain text that only looks like data stays text: ${reply}`, async () => {
      model.enqueue(turn.steps({ text: reply, chunkSize: 3 }));
      const r = await run();
      expect(r.text).toBe(reply);
      expect(model.requests).toHaveLength(1);
    });
  }

  test("a 400 that merely mentions 'context' is the client error it is, not a context-length error", async () => {
    model.enqueue(turn.http(400, { error: { message: "Unrecognized request argument supplied: context", type: "invalid_request_error" } }));
    const r = await run();
    expect(r.result.status).toBe("failed");
    expect(r.errors[0]).toContain("rejected the request (HTTP 400)");
    expect(model.requests).toHaveLength(1);
  });

  test("a 400 in the server's own context wording (llama.cpp) is a context-length error and is answered by trimming", async () => {
    model.enqueue(
      turn.http(400, { error: { code: 400, message: "the request exceeds the available context size, try increasing it", type: "exceed_context_size_error" } }),
      turn.text("Fine."),
    );
    const r = await run();
    expect(r.errors).toEqual([]);
    expect(r.text).toContain("Fine.");
  });
});
