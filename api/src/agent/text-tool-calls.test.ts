import { describe, expect, test } from "bun:test";
import type { ToolSpec } from "./chat-message";
import { parseTextToolCalls, TextToolCallGuard } from "./text-tool-calls";

const specs: ToolSpec[] = [
  { name: "write_file", description: "", parameters: { type: "object", properties: { path: { type: "string" }, content: { type: "string" } } } },
  { name: "run_shell", description: "", parameters: { type: "object", properties: { command: { type: "string" }, background: { type: "boolean" } } } },
];
const parsed = (text: string) => {
  const r = parseTextToolCalls(text, specs);
  return { text: r.text, calls: r.calls.map((c) => [c.name, JSON.parse(c.arguments)]) };
};

describe("tool calls written as text", () => {
  test("bare JSON, Hermes <tool_call>, Qwen3-Coder <function=…> and a fenced json block are read", () => {
    expect(parsed('{"name": "write_file", "arguments": {"path": "a.txt", "content": "hi {x}"}}')).toEqual({
      text: "",
      calls: [["write_file", { path: "a.txt", content: "hi {x}" }]],
    });
    expect(parsed('Let me write it.\n<tool_call>\n{"name": "write_file", "arguments": {"path": "b.txt", "content": "b"}}\n</tool_call>')).toEqual({
      text: "Let me write it.",
      calls: [["write_file", { path: "b.txt", content: "b" }]],
    });
    expect(
      parsed(
        "<tool_call>\n<function=run_shell>\n<parameter=command>\nnpm run dev\n</parameter>\n<parameter=background>\ntrue\n</parameter>\n</function>\n</tool_call>",
      ),
    ).toEqual({ text: "", calls: [["run_shell", { command: "npm run dev", background: true }]] });
    expect(parsed("<function=write_file><parameter=path>c.txt</parameter><parameter=content>42</parameter></function>")).toEqual({
      text: "",
      calls: [["write_file", { path: "c.txt", content: "42" }]],
    });
    expect(parsed('Here:\n```json\n{"name": "run_shell", "parameters": {"command": "ls"}}\n```\nDone.')).toEqual({
      text: "Here:\n\nDone.",
      calls: [["run_shell", { command: "ls" }]],
    });
  });

  test("JSON that names no offered tool, or is not a call, stays text", () => {
    for (const text of [
      '{"name": "teleport", "arguments": {}}',
      '```json\n{"name": "my-app", "version": "1.0.0"}\n```',
      "<tool_call>not json</tool_call>",
      "const x = {\n  a: 1\n};",
    ]) {
      expect(parseTextToolCalls(text, specs)).toEqual({ calls: [], text });
    }
  });

  test("the guard streams ordinary text, holds a call from its first character (split across chunks), releases false alarms", () => {
    const shown: string[] = [];
    const guard = new TextToolCallGuard((t) => shown.push(t));
    for (const part of ["Sure.\n", "<tool", "_call>", '{"name":', '"run_shell"}', "</tool_call>"]) guard.push(part);
    expect(shown.join("")).toBe("Sure.\n");
    expect(guard.end()).toEqual({ held: '<tool_call>{"name":"run_shell"}</tool_call>', callLike: true });

    const plain: string[] = [];
    const g2 = new TextToolCallGuard((t) => plain.push(t));
    for (const part of ["a < b and {", "x} then\n{", ' "na', 'me": 1', "}\n```ts\nok"]) g2.push(part);
    // `{` mid-line never holds; a line-start `{"na…` holds until it is clearly a {"name": object.
    expect(plain.join("")).toBe("a < b and {x} then\n");
    expect(g2.end()).toEqual({ held: '{ "name": 1}\n```ts\nok', callLike: true });

    const g3 = new TextToolCallGuard((t) => plain.push(t));
    plain.length = 0;
    for (const part of ["x <b", "r> y ``", '` z {"a": 1}']) g3.push(part);
    expect(plain.join("")).toBe('x <br> y ``` z {"a": 1}');
    expect(g3.end()).toEqual({ held: "", callLike: false });
  });
});

describe("more text forms", () => {
  test("pythonic lists take Python literals: quotes of both kinds, triple quotes, escapes, True/None, lists and dicts", () => {
    expect(parsed(`[run_shell(command='echo "a"\\tb', background=True), write_file(path="x", content="""line 1\nline 2""")]`)).toEqual({
      text: "",
      calls: [
        ["run_shell", { command: 'echo "a"\tb', background: true }],
        ["write_file", { path: "x", content: "line 1\nline 2" }],
      ],
    });
    expect(parsed(`[write_file(path="p", content={"k": [1, None, 'v']})]`).calls).toEqual([["write_file", { path: "p", content: { k: [1, null, "v"] } }]]);
  });

  test("a pythonic-looking list with a positional argument or an expression stays text", () => {
    for (const text of ["[write_file(path)]", '[write_file(path="a" + b)]', "[write_file(path='a'), 3]", "[write_file(path='a')"]) {
      expect(parseTextToolCalls(text, specs)).toEqual({ calls: [], text });
    }
  });

  test("the guard holds `[` + a prefix of an offered tool's name, and lets a markdown link through at once", () => {
    const shown: string[] = [];
    const guard = new TextToolCallGuard((t) => shown.push(t), ["write_file"]);
    guard.push("[write_f");
    expect(shown).toEqual([]);
    guard.push("ile] is a tool\n[see](x)");
    expect(shown.join("")).toBe("[write_file] is a tool\n[see](x)");
    expect(guard.end()).toEqual({ held: "", callLike: false });
  });
});
