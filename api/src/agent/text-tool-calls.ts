/**
 * Tool calls a model wrote as text instead of through the tool interface: local Qwen, Llama, Hermes, Mistral
 * and DeepSeek models served without a tool parser (or on a server that refuses `tools`) do this often.
 * Read are a bare JSON object `{"name": …, "arguments": …}` or a JSON list of them, Hermes/Qwen
 * `<tool_call>{…}</tool_call>`, Qwen3-Coder `<function=name><parameter=key>value</parameter></function>`, a
 * fenced json block with those keys, Mistral `[TOOL_CALLS][…]` and `[TOOL_CALLS]name[ARGS]{…}`, DeepSeek's
 * `<｜tool▁call▁begin｜>` tokens, Llama's `<|python_tag|>{…}` and its pythonic `[name(key="value")]` lists.
 * Only offered tools count, and a reply that names any other tool in such a form is left as it is, so an
 * answer that merely shows JSON or code stays an answer.
 *
 * @example
 * const { calls, text } = parseTextToolCalls('<tool_call>{"name":"read_file","arguments":{"path":"a"}}</tool_call>', specs);
 * // calls = [{ id: "call_text_…", name: "read_file", arguments: '{"path":"a"}' }], text = ""
 */
import type { ToolCallRequest, ToolSpec } from "./chat-message";
import { readPythonicCalls } from "./pythonic-calls";

/** DeepSeek's special tokens, as its tokenizer spells them (full-width bar, "▁") or as some servers render them. */
const DS_BAR = "[|\uFF5C]";
const DS_SP = "[\u2581_ ]";
const dsToken = (words: string) => `<${DS_BAR}${words.split(" ").join(DS_SP)}${DS_BAR}>`;
const DS_CALL = new RegExp(
  `${dsToken("tool call begin")}\\s*(?:function\\s*${dsToken("tool sep")}\\s*([\\w.-]+)\\s*\`\`\`(?:json)?\\s*([\\s\\S]*?)\\s*\`\`\`|([\\w.-]+)\\s*${dsToken("tool sep")}\\s*([\\s\\S]*?))\\s*${dsToken("tool call end")}`,
  "g",
);
const DS_WRAPPER = new RegExp(`${dsToken("tool calls begin")}|${dsToken("tool calls end")}`, "g");

/** Where a text tool call may begin anywhere in a line: the stream holds text back from here (see `TextToolCallGuard`). */
const OPENERS = ["<tool_call>", "<function=", "```json", "[TOOL_CALLS]", "<|python_tag|>", "<\uFF5Ctool\u2581call", "<|tool\u2581call", "<|tool_call"] as const;
const BARE_JSON = /^\{\s*"name"\s*:/;
/** A bare JSON opener cut by a chunk boundary: `{`, `{ "`, `{"na`… */
const BARE_JSON_PARTIAL = /^\{\s*("(n(a(m(e("\s*)?)?)?)?)?)?$/;
const BARE_LIST = /^\[\s*\{\s*"name"\s*:/;
const BARE_LIST_PARTIAL = /^\[\s*(\{\s*("(n(a(m(e("\s*)?)?)?)?)?)?)?$/;
/** The keys a call object may have: an object with others (`"role"`, `"version"`) is data, not a call. */
const CALL_KEYS = new Set(["name", "arguments", "parameters", "id", "type"]);

export type TextToolCalls = { calls: ToolCallRequest[]; text: string };

let counter = 0;
const newId = () => `call_text_${(++counter).toString(36)}_${Math.random().toString(36).slice(2, 8)}`;

/** The text's tool calls (offered tools only) and what remains of the text without them. */
export function parseTextToolCalls(text: string, tools: ToolSpec[]): TextToolCalls {
  const byName = new Map(tools.map((t) => [t.name, t]));
  const calls: ToolCallRequest[] = [];
  // A call form naming a tool that was not offered: the reply is not trusted as calls at all.
  let foreign = false;
  /** Takes all the calls of one group, or none when one of them is not an offered tool. */
  const takeAll = (group: { name: unknown; args: unknown }[]): boolean => {
    if (!group.length || group.some((c) => typeof c.name !== "string" || !byName.has(c.name))) {
      if (group.some((c) => typeof c.name === "string")) foreign = true;
      return false;
    }
    for (const c of group) {
      const raw = typeof c.args === "string" ? c.args : JSON.stringify(c.args ?? {});
      calls.push({ id: newId(), name: c.name as string, arguments: raw });
    }
    return true;
  };
  const take = (name: unknown, args: unknown) => takeAll([{ name, args }]);
  /** A parsed `{"name", "arguments"|"parameters"}` object as a call, or null. */
  const asCall = (value: unknown): { name: unknown; args: unknown } | null => {
    if (value === null || typeof value !== "object" || Array.isArray(value)) return null;
    const o = value as Record<string, unknown>;
    if (typeof o.name !== "string" || Object.keys(o).some((k) => !CALL_KEYS.has(k))) return null;
    return { name: o.name, args: o.arguments ?? o.parameters };
  };
  const parse = (json: string): unknown => {
    try {
      return JSON.parse(json);
    } catch {
      return undefined;
    }
  };
  const fromJson = (json: string): boolean => {
    const call = asCall(parse(json));
    return call !== null && take(call.name, call.args);
  };
  const fromList = (json: string): boolean => {
    const list = parse(json);
    if (!Array.isArray(list)) return false;
    const group = list.map(asCall);
    return !group.some((c) => c === null) && takeAll(group as { name: unknown; args: unknown }[]);
  };
  const fromFunction = (block: string): boolean => {
    const head = /<function=([\w.-]+)>/.exec(block);
    if (!head) return false;
    const spec = byName.get(head[1]!);
    if (!spec) return take(head[1], {});
    const args: Record<string, unknown> = {};
    for (const p of block.matchAll(/<parameter=([\w.-]+)>\n?([\s\S]*?)\n?<\/parameter>/g)) {
      args[p[1]!] = typedValue(p[2]!, spec, p[1]!);
    }
    return take(head[1], args);
  };

  let rest = text;
  const cut = (re: RegExp, read: (m: RegExpExecArray) => boolean) => {
    rest = rest.replace(re, (...groups) => {
      const match = groups.slice(0, -2) as unknown as RegExpExecArray;
      return read(match) ? "" : match[0];
    });
  };
  cut(/<tool_call>\s*([\s\S]*?)\s*(?:<\/tool_call>|$)/g, (m) => (m[1]!.startsWith("<function=") ? fromFunction(m[1]!) : fromJson(m[1]!)));
  cut(/<function=[\w.-]+>[\s\S]*?(?:<\/function>|$)/g, (m) => fromFunction(m[0]));
  cut(/```json[ \t]*\n([\s\S]*?)\n?```/g, (m) => fromJson(m[1]!.trim()) || fromList(m[1]!.trim()));
  // DeepSeek: every call of the reply between its wrapper tokens, or none.
  const ds = [...rest.matchAll(DS_CALL)];
  if (ds.length && takeAll(ds.map((m) => ({ name: m[1] ?? m[3], args: jsonArgs(m[2] ?? m[4]!) })))) {
    rest = rest.replace(DS_CALL, "").replace(DS_WRAPPER, "");
  }
  rest = readMistral(rest, fromJson, fromList, takeAll);
  // Llama 3.1: `<|python_tag|>` before a JSON call.
  rest = cutBalanced(rest, /<\|python_tag\|>\s*(?=\{)/g, fromJson);
  // A bare object or list of calls, or a pythonic call list: from a `{` or `[` that opens a line to its end.
  rest = cutBalanced(rest, /(?:^|\n)(?=\{\s*"name"\s*:)/g, fromJson);
  rest = cutBalanced(rest, /(?:^|\n)(?=\[\s*\{\s*"name"\s*:)/g, fromList);
  for (let from = 0; ; ) {
    const at = rest.slice(from).search(/(?:^|\n)\[\s*[A-Za-z_][\w.]*\s*\(/);
    if (at === -1) break;
    const start = from + at + (rest[from + at] === "\n" ? 1 : 0);
    const list = readPythonicCalls(rest, start);
    if (list && takeAll(list.calls.map((c) => ({ name: c.name, args: c.args })))) {
      rest = rest.slice(0, start) + rest.slice(list.end);
      from = start;
    } else from = start + 1;
  }
  if (foreign) return { calls: [], text };
  return { calls, text: calls.length ? rest.replace(/\n{3,}/g, "\n\n").trim() : text };
}

/** DeepSeek's arguments: JSON, sometimes fenced. */
function jsonArgs(raw: string): unknown {
  const t = raw
    .trim()
    .replace(/^```(?:json)?\s*/, "")
    .replace(/\s*```$/, "");
  try {
    return JSON.parse(t);
  } catch {
    return t;
  }
}

/**
 * Mistral's `[TOOL_CALLS]`: a JSON list (or object) of calls, or, from its v11 tokenizer on, `name[ARGS]{…}`
 * (with `[CALL_ID]id` in some templates) once per call. Consecutive calls are one group: all run, or none.
 */
function readMistral(
  text: string,
  fromJson: (json: string) => boolean,
  fromList: (json: string) => boolean,
  takeAll: (group: { name: unknown; args: unknown }[]) => boolean,
): string {
  const MARK = "[TOOL_CALLS]";
  const first = text.indexOf(MARK);
  if (first === -1) return text;
  let i = first;
  const named: { name: unknown; args: unknown }[] = [];
  while (text.startsWith(MARK, i)) {
    i += MARK.length;
    while (/\s/.test(text[i] ?? "")) i++;
    if (text[i] === "[" || text[i] === "{") {
      const end = balancedEnd(text, i);
      if (end === -1) return text;
      const ok = text[i] === "[" ? fromList(text.slice(i, end)) : fromJson(text.slice(i, end));
      if (!ok) return text;
      i = end;
    } else {
      const head = /^([\w.-]+)(?:\[CALL_ID\][\w-]*)?\[ARGS\]\s*/.exec(text.slice(i, i + 300));
      if (!head || text[i + head[0].length] !== "{") return text;
      const at = i + head[0].length;
      const end = balancedEnd(text, at);
      if (end === -1) return text;
      try {
        named.push({ name: head[1], args: JSON.parse(text.slice(at, end)) });
      } catch {
        return text;
      }
      i = end;
    }
    while (/\s/.test(text[i] ?? "") && text.slice(i).trimStart().startsWith(MARK)) i++;
  }
  if (named.length && !takeAll(named)) return text;
  return text.slice(0, first) + text.slice(i);
}

/** Each balanced JSON value starting where `re` matches (a zero-width look-ahead at `{` or `[`) cut out when `read` takes it. */
function cutBalanced(text: string, re: RegExp, read: (json: string) => boolean): string {
  let rest = text;
  for (let from = 0; ; ) {
    re.lastIndex = 0;
    const m = re.exec(rest.slice(from));
    if (!m) return rest;
    const prefixAt = from + m.index + (rest[from + m.index] === "\n" ? 1 : 0);
    const start = from + m.index + m[0].length;
    const end = balancedEnd(rest, start);
    if (end !== -1 && read(rest.slice(start, end))) {
      rest = rest.slice(0, prefixAt) + rest.slice(end);
      from = prefixAt;
    } else from = start + 1;
  }
}

/** A Qwen3-Coder parameter is text; non-string schema types (booleans, numbers, objects) are parsed. */
function typedValue(raw: string, spec: ToolSpec, key: string): unknown {
  const props = (spec.parameters as { properties?: Record<string, { type?: unknown }> }).properties;
  const type = props?.[key]?.type;
  if (type === "string" || type === undefined) return raw;
  try {
    return JSON.parse(raw.trim());
  } catch {
    return raw;
  }
}

/** The index just past the `}` or `]` that closes the `{` or `[` at `start`, strings respected; -1 when unclosed. */
function balancedEnd(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === "{" || c === "[") depth++;
    else if ((c === "}" || c === "]") && --depth === 0) return i + 1;
  }
  return -1;
}

/**
 * Holds streamed answer text back from the first place a text tool call could start, so a recognised
 * call is never shown as the answer. Text before it streams as usual; what is held is settled when the
 * turn ends (`end`): its calls taken, the rest shown. A held `{`/`<` that turns out to be something else
 * (checked as soon as enough characters arrived) is released at once.
 */
export class TextToolCallGuard {
  private held = "";
  private holding = false;
  private atLineStart = true;

  /** `toolNames`: the offered tools, whose names open a pythonic call list (`[read_file(…`). */
  constructor(
    private readonly show: (text: string) => void,
    private readonly toolNames: readonly string[] = [],
  ) {}

  push(delta: string): void {
    if (this.holding) {
      this.held += delta;
      return;
    }
    const text = this.held + delta;
    this.held = "";
    const found = this.findOpener(text);
    const shown = found ? text.slice(0, found.index) : text;
    if (shown) {
      this.show(shown);
      this.atLineStart = shown.endsWith("\n");
    }
    if (found) {
      this.held = text.slice(found.index);
      this.holding = found.confirmed;
    }
  }

  /** What was held back (to be parsed by the caller), and whether it surely began like a call; the guard is reset. */
  end(): { held: string; callLike: boolean } {
    const out = { held: this.held, callLike: this.holding };
    this.held = "";
    this.holding = false;
    return out;
  }

  private findOpener(text: string): { index: number; confirmed: boolean } | null {
    for (let i = 0; i < text.length; i++) {
      const c = text[i];
      if (c !== "<" && c !== "`" && c !== "{" && c !== "[") continue;
      const rest = text.slice(i);
      for (const opener of OPENERS) {
        if (rest.startsWith(opener)) return { index: i, confirmed: true };
        if (rest.length < opener.length && opener.startsWith(rest)) return { index: i, confirmed: false };
      }
      if (c !== "{" && c !== "[") continue;
      const lineStart = i === 0 ? this.atLineStart : text[i - 1] === "\n";
      if (!lineStart) continue;
      if (c === "{") {
        if (BARE_JSON.test(rest)) return { index: i, confirmed: true };
        if (BARE_JSON_PARTIAL.test(rest)) return { index: i, confirmed: false };
        continue;
      }
      if (BARE_LIST.test(rest)) return { index: i, confirmed: true };
      if (BARE_LIST_PARTIAL.test(rest)) return { index: i, confirmed: false };
      // A pythonic call list: `[` and the name of an offered tool, then `(`.
      const call = /^\[\s*([A-Za-z_][\w.]*)(\s*\()?/.exec(rest);
      if (!call) continue;
      const name = call[1]!;
      if (call[2] && this.toolNames.includes(name)) return { index: i, confirmed: true };
      if (!call[2] && call[0].length === rest.length && this.toolNames.some((t) => t.startsWith(name))) return { index: i, confirmed: false };
    }
    return null;
  }
}
