/**
 * Problems read from the app's log: the dev server's error lines (Vite's "Internal server error", a Node
 * exception, an npm failure) with the lines that belong to them, and the file and line they name.
 *
 * @example
 * logProblems(["12:01:02 PM [vite] Internal server error: Failed to resolve import \"./x\" from \"src/App.tsx\"."]);
 * // [{ source: "build", file: "src/App.tsx", line: null, message: "…" }]
 */
import type { AppProblem } from "../../agent/ports";

/**
 * Where an error starts: the word "error" only in an error's own shape ("error:", "[error]", "npm error", a
 * line that begins with it, an upper-case ERROR), not anywhere it is mentioned ("GET /api/errors 200").
 */
const ERROR_START =
  /\berror\s*:|\[error\]|^\W*(?:npm\s+)?error\b|\bERROR\b|\bERR!|\w+Error:|\bfailed to (compile|resolve|load|start)|\bUnhandled|\bException\b|\bEADDRINUSE\b/;
const ERROR_START_ANY_CASE = /\berror\s*:|\[error\]|^\W*(?:npm\s+)?error\b|\bfailed to (compile|resolve|load|start)|\bunhandled/i;
const NOT_AN_ERROR = /\b(0|no) errors?\b|error-free|onerror|errorElement|console\.error\(/i;
/** Lines that continue an error: indented (stack, code frame), or Vite's Plugin:/File: notes. */
const CONTINUES = /^(\s+\S|\s*(Plugin|File|Caused by|at)\b|\s*\d+\s*\|)/;
const BUILD = /resolve import|Pre-transform|Transform failed|Plugin:|SyntaxError|Unexpected token|failed to compile|compilation failed|TS\d{4}/i;
const FILE_LINE = /((?:\/[^\s:()'"]+\/)?[\w.@-][\w./@-]*\.(?:tsx?|jsx?|mjs|cjs|vue|svelte|css|scss|html))(?::(\d+))?/;
const MAX_LINES_PER_PROBLEM = 8;

/** The project-relative form of a path as the sandbox prints it. */
export function projectRelative(path: string): string {
  return path.replace(/^.*?\/home\/user\/project\//, "").replace(/^\/+/, "");
}

export function logProblems(lines: string[]): AppProblem[] {
  const problems: AppProblem[] = [];
  const clean = lines.map((l) => l.replace(/\x1b\[[0-9;]*[A-Za-z]/g, ""));
  for (let i = 0; i < clean.length; i++) {
    const line = clean[i]!;
    if (!(ERROR_START.test(line) || ERROR_START_ANY_CASE.test(line)) || NOT_AN_ERROR.test(line) || CONTINUES.test(line)) continue;
    const block = [line.trim()];
    while (i + 1 < clean.length && CONTINUES.test(clean[i + 1]!) && block.length < MAX_LINES_PER_PROBLEM) block.push(clean[++i]!.trimEnd());
    const message = block.join("\n");
    const located = FILE_LINE.exec(/File:\s*(\S+)/.exec(message)?.[1] ?? message);
    const file = located && !located[1]!.includes("node_modules") ? projectRelative(located[1]!) : null;
    problems.push({ source: BUILD.test(message) ? "build" : "server", message, file, line: file && located![2] ? Number(located![2]) : null });
  }
  return problems;
}
