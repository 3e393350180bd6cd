/**
 * Tool calls a model wrote as text instead of through the tool interface: local Qwen, Llama and Hermes
 * models served without a tool parser do this often. Four shapes are read — a bare JSON object
 * `{"name": …, "arguments": …}`, Hermes/Qwen `<tool_call>{…}</tool_call>`, Qwen3-Coder
 * `<function=name><parameter=key>value</parameter></function>`, and a fenced json block with those keys —
 * and only for tools that were offered, so an answer that merely shows JSON stays an answer.
 *
 * @example
 * const { calls, text } = parseTextToolCalls('<tool_call>{"name":"read_file","arguments":{"path":"a"}}</tool_call>', specs);
 * // calls = [{ id: "call_text_…", name: "read_file", arguments: '{"path":"a"}' }], text = ""
 */
import type { ToolCallRequest, ToolSpec } from "./chat-message";

/** Where a text tool call may begin: the stream holds text back from here (see `TextToolCallGuard`). */
const OPENERS = ["<tool_call>", "<function=", "```json"] as const;
const BARE_JSON = /^\{\s*"name"\s*:/;
/** A bare JSON opener cut by a chunk boundary: `{`, `{ "`, `{"na`… */
const BARE_JSON_PARTIAL = /^\{\s*("(n(a(m(e("\s*)?)?)?)?)?)?$/;

export type TextToolCalls = { calls: ToolCallRequest[]; text: string };

let counter = 0;
const newId = () => `call_text_${(++counter).toString(36)}_${Math.random().toString(36).slice(2, 8)}`;

/** The text's tool calls (offered tools only) and what remains of the text without them. */
export function parseTextToolCalls(text: string, tools: ToolSpec[]): TextToolCalls {
  const byName = new Map(tools.map((t) => [t.name, t]));
  const calls: ToolCallRequest[] = [];
  const take = (name: unknown, args: unknown): boolean => {
    if (typeof name !== "string" || !byName.has(name)) return false;
    const raw = typeof args === "string" ? args : JSON.stringify(args ?? {});
    calls.push({ id: newId(), name, arguments: raw });
    return true;
  };
  const fromJson = (json: string): boolean => {
    try {
      const value = JSON.parse(json) as { name?: unknown; arguments?: unknown; parameters?: unknown };
      return value !== null && typeof value === "object" && take(value.name, value.arguments ?? value.parameters);
    } catch {
      return false;
    }
  };
  const fromFunction = (block: string): boolean => {
    const head = /<function=([\w.-]+)>/.exec(block);
    if (!head) return false;
    const spec = byName.get(head[1]!);
    if (!spec) return false;
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
  cut(/```json[ \t]*\n([\s\S]*?)\n?```/g, (m) => fromJson(m[1]!.trim()));
  // A bare object: from a `{` that opens a line to its balanced end.
  for (let i = rest.search(/(^|\n)\{/); i !== -1; ) {
    const start = rest[i] === "\n" ? i + 1 : i;
    const end = balancedEnd(rest, start);
    if (end !== -1 && BARE_JSON.test(rest.slice(start, end)) && fromJson(rest.slice(start, end))) {
      rest = rest.slice(0, start) + rest.slice(end);
      i = rest.slice(start).search(/(^|\n)\{/);
      if (i !== -1) i += start;
    } else {
      const next = rest.slice(start + 1).search(/\n\{/);
      i = next === -1 ? -1 : start + 1 + next;
    }
  }
  return { calls, text: calls.length ? rest.replace(/\n{3,}/g, "\n\n").trim() : text };
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

/** The index just past the `}` that closes the `{` at `start`, strings respected; -1 when unclosed. */
function balancedEnd(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === "{") depth++;
    else if (c === "}" && --depth === 0) return i + 1;
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

  constructor(private readonly show: (text: string) => void) {}

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
      if (c !== "<" && c !== "`" && c !== "{") continue;
      const rest = text.slice(i);
      if (c === "{") {
        const lineStart = i === 0 ? this.atLineStart : text[i - 1] === "\n";
        if (!lineStart) continue;
        if (BARE_JSON.test(rest)) return { index: i, confirmed: true };
        if (BARE_JSON_PARTIAL.test(rest)) return { index: i, confirmed: false };
        continue;
      }
      for (const opener of OPENERS) {
        if (rest.startsWith(opener)) return { index: i, confirmed: true };
        if (rest.length < opener.length && opener.startsWith(rest)) return { index: i, confirmed: false };
      }
    }
    return null;
  }
}
