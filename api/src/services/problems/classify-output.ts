/**
 * Recognises error lines in the dev server's output (the `app` process log) and turns each into a problem:
 * Vite's "Internal server error" / "Pre-transform error" (with the `File:` line after it), "Failed to resolve
 * import", esbuild's `✘ [ERROR]`, TypeScript's `file(1,2): error TS…`, Node's `Error:` lines with their
 * stack. A compile or transform error is `build`; anything else the server throws is `server`.
 *
 * @example
 * classifyOutput([{ t: Date.now(), stream: "stderr", text: "[vite] Internal server error: …" }]);
 */
import { firstProjectFrame, isForeignPath, projectRelativePath } from "./source-path";
import type { OutputLine, ProblemInput } from "./types";

// Colours and other terminal escapes, which Vite and esbuild print even into a pipe.
// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b\][^\u0007]*\u0007/g;
const TIME_PREFIX = /^\s*\d{1,2}:\d{2}:\d{2}(?:\s?[AP]M)?\s+/i;

type Rule = { re: RegExp; source: ProblemInput["source"] | ((message: string) => ProblemInput["source"]) };

const BUILD_WORDS = /transform|parse|syntax|resolve import|compil|unexpected token|expected|plugin|esbuild|rolldown|oxc|does the file exist/i;

// Order matters: the first rule that matches a line decides.
const RULES: Rule[] = [
  // Vite: `[vite] Internal server error: …`, `[vite] (client) Pre-transform error: …`, `[vite] error while updating…`
  {
    re: /\[vite\](?:\s*\([\w-]+\))?\s*(?:Internal server error|Pre-transform error|error[^:]*):\s*(.*)$/i,
    source: (m) => (BUILD_WORDS.test(m) ? "build" : "server"),
  },
  { re: /^\s*\[plugin:([\w:-]+)\]\s*(.*)$/, source: "build" },
  { re: /^(Failed to resolve import .*)$/, source: "build" },
  // esbuild
  { re: /^\s*(?:✘|X)\s*\[ERROR\]\s*(.*)$/, source: "build" },
  // TypeScript (tsc and vite-plugin-checker)
  { re: /^(.*\.[cm]?[jt]sx?(?:\(\d+,\d+\)|:\d+:\d+)\s*[:-]\s*error\s+TS\d+:.*)$/, source: "build" },
  { re: /^\s*(?:error\s+)?(TS\d{3,5}:.*)$/, source: "build" },
  // Node: `TypeError: x is not a function`, `Error: listen EADDRINUSE …`, `Uncaught SyntaxError: …`
  { re: /^\s*(?:Uncaught\s+)?((?:[A-Z]\w*)?(?:Error|Exception)(?:\s\[[\w-]+\])?:\s.*)$/, source: (m) => (/^SyntaxError/.test(m) ? "build" : "server") },
  { re: /^\s*(npm (?:ERR!|error) .*)$/, source: "server" },
];

// A line that starts something new, ending the previous error's trailing lines.
const NEW_ENTRY = /^\S/;
const FILE_LINE = /^\s*File:\s*(\S+?)(?::(\d+)(?::\d+)?)?\s*$/;
const POSITION = /((?:\/|\.{0,2}\/?[\w@.-]+\/)?[\w@./-]*\.(?:[cm]?[jt]sx?|vue|svelte|css|scss|less|html|json|mdx?))(?:\((\d+),\d+\)|:(\d+)(?::\d+)?)/;
const FOLLOW_LINES = 20;

const clean = (text: string) => text.replace(ANSI, "").replace(/\r$/, "");

function toDate(t: OutputLine["t"]): Date {
  const d = typeof t === "number" ? new Date(t) : new Date(String(t));
  return Number.isNaN(d.getTime()) ? new Date() : d;
}

/** The lines that belong to the error starting at `start`: indented lines, blank lines, code frames. */
function trailing(lines: string[], start: number): string[] {
  const out: string[] = [];
  for (let i = start + 1; i < lines.length && out.length < FOLLOW_LINES; i++) {
    const text = lines[i]!;
    if (TIME_PREFIX.test(text) || (NEW_ENTRY.test(text) && !/^[│╭╰─┬]/.test(text) && !/^\[[A-Z_]+\]/.test(text))) break;
    out.push(text);
  }
  return out;
}

function locate(message: string, follow: string[]): { file: string | null; line: number | null } {
  let best: { file: string | null; line: number | null } = { file: null, line: null };
  const consider = (file: string | null | undefined, line: string | undefined) => {
    const path = projectRelativePath(file);
    if (!path || isForeignPath(path)) return;
    if (!best.file || (best.line === null && line)) best = { file: path, line: line ? Number(line) : null };
  };
  for (const text of follow) {
    const f = FILE_LINE.exec(text);
    if (f) consider(f[1], f[2]);
  }
  for (const text of [message, ...follow]) {
    if (best.line !== null) break;
    const p = POSITION.exec(text);
    if (p) consider(p[1], p[2] ?? p[3]);
  }
  if (!best.file) {
    // `from "src/App.tsx"` in Vite's resolve errors names the importing file.
    const from = /\bfrom "([^"]+)"/.exec(message);
    if (from) consider(from[1], undefined);
  }
  if (best.line === null) {
    const frame = firstProjectFrame(follow.join("\n"));
    if (frame && (!best.file || best.file === frame.file)) best = frame;
  }
  return best;
}

/** Every problem in this batch of output lines, in order. A problem's trailing lines are its detail. */
export function classifyOutput(batch: OutputLine[]): ProblemInput[] {
  const lines = batch.map((l) => clean(l.text));
  const problems: ProblemInput[] = [];
  for (let i = 0; i < lines.length; i++) {
    const text = lines[i]!.replace(TIME_PREFIX, "");
    // Stack frames and Vite's own `File:`/`Plugin:` lines belong to the error above them.
    if (/^\s+at\s/.test(text) || /^\s+(File|Plugin):/.test(text)) continue;
    for (const rule of RULES) {
      const m = rule.re.exec(text);
      if (!m) continue;
      let message = (m.length > 2 ? `[plugin:${m[1]}] ${m[2]}` : (m[1] ?? text)).trim();
      const follow = trailing(lines, i);
      // "Transform failed with 1 error:" says nothing by itself; the next words do.
      if (message.endsWith(":") || !message) {
        const next = follow.find((l) => l.trim() && !/^[\s│╭╰─]*$/.test(l));
        if (next) message = `${message} ${next.trim()}`.trim();
      }
      if (!message) break;
      const source = typeof rule.source === "function" ? rule.source(message) : rule.source;
      const { file, line } = locate(message, follow);
      const detail = follow.join("\n").trim();
      problems.push({ source, message: message.slice(0, 1000), detail: detail ? detail.slice(0, 4000) : null, file, line, seenAt: toDate(batch[i]!.t) });
      i += follow.length;
      break;
    }
  }
  return problems;
}
