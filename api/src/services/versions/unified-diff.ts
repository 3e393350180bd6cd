/**
 * A line-based unified diff (the `diff -u` format that Monaco, git and patch read), from Myers' O(ND)
 * shortest edit script. Very different large files fall back to one hunk replacing everything, so a diff
 * request can never take unbounded time or memory.
 *
 * @example
 * unifiedDiff("src/a.ts", "a\nb\n", "a\nc\n"); // "--- a/src/a.ts\n+++ b/src/a.ts\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n"
 */

const CONTEXT = 3;
/** Beyond this many differing lines, Myers' trace would cost too much: answer a whole-file replacement. */
const MAX_EDIT_DISTANCE = 4000;

type Op = { kind: " " | "-" | "+"; line: string };

/** Marks a last line without its newline, so it never matches the same text with one (git shows that change). */
const NO_NEWLINE = "\u0000";

function splitLines(text: string): string[] {
  if (text === "") return [];
  const finalNewline = text.endsWith("\n");
  const lines = (finalNewline ? text.slice(0, -1) : text).split("\n");
  if (!finalNewline) lines[lines.length - 1] += NO_NEWLINE;
  return lines;
}

const printLine = (kind: string, line: string) =>
  line.endsWith(NO_NEWLINE) ? `${kind}${line.slice(0, -1)}\n\\ No newline at end of file\n` : `${kind}${line}\n`;

/** The edit script from `a` to `b`, or null when they differ in more than MAX_EDIT_DISTANCE lines. */
function myers(a: string[], b: string[]): Op[] | null {
  const n = a.length;
  const m = b.length;
  const max = Math.min(n + m, MAX_EDIT_DISTANCE);
  const offset = max + 1;
  let v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  for (let d = 0; d <= max; d++) {
    trace.push(v.slice());
    const next = v.slice();
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!) ? v[offset + k + 1]! : v[offset + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      next[offset + k] = x;
      if (x >= n && y >= m) return backtrack(trace, a, b, d, offset);
    }
    v = next;
  }
  return null;
}

function backtrack(trace: Int32Array[], a: string[], b: string[], dEnd: number, offset: number): Op[] {
  const ops: Op[] = [];
  let x = a.length;
  let y = b.length;
  for (let d = dEnd; d >= 0; d--) {
    const prev = trace[d]!;
    const k = x - y;
    const down = k === -d || (k !== d && prev[offset + k - 1]! < prev[offset + k + 1]!);
    const prevK = down ? k + 1 : k - 1;
    const prevX = d === 0 ? 0 : prev[offset + prevK]!;
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      x--;
      y--;
      ops.push({ kind: " ", line: a[x]! });
    }
    if (d === 0) break;
    if (down) ops.push({ kind: "+", line: b[--y]! });
    else ops.push({ kind: "-", line: a[--x]! });
  }
  return ops.reverse();
}

/** A unified diff of one file from `before` to `after` (either may be "" for an added or removed file). */
export function unifiedDiff(path: string, before: string, after: string, options: { added?: boolean; removed?: boolean } = {}): string {
  const a = splitLines(before);
  const b = splitLines(after);
  const ops = myers(a, b) ?? [...a.map((line) => ({ kind: "-" as const, line })), ...b.map((line) => ({ kind: "+" as const, line }))];
  const header = `--- ${options.added ? "/dev/null" : `a/${path}`}\n+++ ${options.removed ? "/dev/null" : `b/${path}`}\n`;
  const hunks: string[] = [];
  // Line numbers (1-based) in a and b at each op.
  let ai = 0;
  let bi = 0;
  const positions = ops.map((op) => {
    const at = { a: ai, b: bi };
    if (op.kind !== "+") ai++;
    if (op.kind !== "-") bi++;
    return at;
  });
  let i = 0;
  while (i < ops.length) {
    if (ops[i]!.kind === " ") {
      i++;
      continue;
    }
    const start = Math.max(0, i - CONTEXT);
    let end = i;
    // Extend while the next change is within 2×CONTEXT unchanged lines.
    for (let j = i; j < ops.length; j++) {
      if (ops[j]!.kind !== " ") end = j;
      else if (j - end > 2 * CONTEXT) break;
    }
    const stop = Math.min(ops.length, end + CONTEXT + 1);
    const slice = ops.slice(start, stop);
    const aCount = slice.filter((op) => op.kind !== "+").length;
    const bCount = slice.filter((op) => op.kind !== "-").length;
    const aStart = aCount === 0 ? positions[start]!.a : positions[start]!.a + 1;
    const bStart = bCount === 0 ? positions[start]!.b : positions[start]!.b + 1;
    const lines = slice.map((op) => printLine(op.kind, op.line));
    hunks.push(`@@ -${aStart},${aCount} +${bStart},${bCount} @@\n${lines.join("")}`);
    i = stop;
  }
  return hunks.length === 0 ? "" : header + hunks.join("");
}
