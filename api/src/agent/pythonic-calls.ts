/**
 * Llama 3.2+/4 "pythonic" tool calls, `[read_file(path="a.ts"), run_shell(command='ls', background=False)]`,
 * read with a small parser of Python literals (strings with escapes, numbers, True/False/None, lists and
 * dicts): keyword arguments only, as those models write them. Anything else — a positional argument, an
 * expression, text after a call inside the brackets — is not a call list.
 *
 * @example
 * readPythonicCalls('[read_file(path="a.ts")] rest', 0); // { calls: [{ name: "read_file", args: { path: "a.ts" } }], end: 20 }
 */
export type PythonicCall = { name: string; args: Record<string, unknown> };

class NotPython extends Error {}

/** The call list opening at `start` (a `[`), and the index just past its `]`; null when it is not one. */
export function readPythonicCalls(text: string, start: number): { calls: PythonicCall[]; end: number } | null {
  let i = start;
  const fail = (): never => {
    throw new NotPython();
  };
  const ws = () => {
    while (i < text.length && /\s/.test(text[i]!)) i++;
  };
  const eat = (c: string) => {
    ws();
    if (text[i] !== c) fail();
    i++;
  };
  const ident = (): string => {
    ws();
    const m = /^[A-Za-z_][\w.]*/.exec(text.slice(i, i + 200));
    if (!m) return fail();
    i += m[0].length;
    return m[0];
  };
  const string = (): string => {
    const q = text[i]!;
    const triple = text.startsWith(q.repeat(3), i);
    const close = triple ? q.repeat(3) : q;
    i += close.length;
    let out = "";
    while (i < text.length && !text.startsWith(close, i)) {
      const c = text[i]!;
      if (c === "\n" && !triple) fail();
      if (c !== "\\") {
        out += c;
        i++;
        continue;
      }
      const e = text[i + 1];
      const simple: Record<string, string> = { n: "\n", t: "\t", r: "\r", "\\": "\\", "'": "'", '"': '"', "0": "\0", "\n": "" };
      if (e !== undefined && e in simple) {
        out += simple[e];
        i += 2;
      } else if (e === "u" && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) {
        out += String.fromCharCode(Number.parseInt(text.slice(i + 2, i + 6), 16));
        i += 6;
      } else {
        out += c;
        i++;
      }
    }
    if (i >= text.length) fail();
    i += close.length;
    return out;
  };
  const sequence = (closeWith: string, item: () => void) => {
    ws();
    while (text[i] !== closeWith) {
      item();
      ws();
      if (text[i] === ",") i++;
      else if (text[i] !== closeWith) fail();
      ws();
    }
    i++;
  };
  const value = (): unknown => {
    ws();
    const c = text[i];
    if (c === '"' || c === "'") return string();
    if (c === "[" || c === "(") {
      i++;
      const list: unknown[] = [];
      sequence(c === "[" ? "]" : ")", () => list.push(value()));
      return list;
    }
    if (c === "{") {
      i++;
      const dict: Record<string, unknown> = {};
      sequence("}", () => {
        const key = value();
        if (typeof key !== "string" && typeof key !== "number") fail();
        eat(":");
        dict[String(key)] = value();
      });
      return dict;
    }
    const m = /^(True|False|None|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)(?![\w.])/.exec(text.slice(i, i + 64));
    if (!m) return fail();
    i += m[0].length;
    return m[1] === "True" ? true : m[1] === "False" ? false : m[1] === "None" ? null : Number(m[1]);
  };

  try {
    if (text[i] !== "[") return null;
    i++;
    const calls: PythonicCall[] = [];
    sequence("]", () => {
      const name = ident();
      eat("(");
      const args: Record<string, unknown> = {};
      sequence(")", () => {
        const key = ident();
        eat("=");
        args[key] = value();
      });
      calls.push({ name, args });
    });
    return calls.length ? { calls, end: i } : null;
  } catch (error) {
    if (error instanceof NotPython) return null;
    throw error;
  }
}
