/**
 * ANSI escape codes in a log line turned into styled runs of plain text: SGR colour and weight codes become
 * a style, every other escape sequence (cursor moves, line erases, titles) is dropped. The runs are text
 * only, rendered by React as text nodes, so nothing in a log line is ever read as HTML.
 *
 * @example
 * parseAnsi("\x1b[32mready\x1b[39m in 300 ms"); // [{ text: "ready", style: { color: "#4ade80" } }, { text: " in 300 ms", style: {} }]
 */

export type AnsiStyle = { color?: string; background?: string; bold?: boolean; dim?: boolean; italic?: boolean; underline?: boolean };
export type AnsiRun = { text: string; style: AnsiStyle };

/** The 16 standard colours, tuned to read on the panel's near-black background (Tailwind's 400s). */
const BASIC = [
  "#71717a",
  "#f87171",
  "#4ade80",
  "#facc15",
  "#60a5fa",
  "#e879f9",
  "#22d3ee",
  "#e4e4e7",
  "#a1a1aa",
  "#fca5a5",
  "#86efac",
  "#fde047",
  "#93c5fd",
  "#f0abfc",
  "#67e8f9",
  "#fafafa",
];

/** xterm's 256-colour palette: the 16 above, a 6×6×6 cube, then 24 greys. */
function color256(n: number): string | undefined {
  if (!Number.isInteger(n) || n < 0 || n > 255) return undefined;
  if (n < 16) return BASIC[n];
  if (n >= 232) return rgb(8 + (n - 232) * 10, 8 + (n - 232) * 10, 8 + (n - 232) * 10);
  const level = (v: number) => (v === 0 ? 0 : 55 + v * 40);
  const i = n - 16;
  return rgb(level(Math.floor(i / 36)), level(Math.floor(i / 6) % 6), level(i % 6));
}

const rgb = (r: number, g: number, b: number) => `rgb(${[r, g, b].map((v) => Math.max(0, Math.min(255, v | 0))).join(", ")})`;

/** Applies one SGR sequence's parameters (`1;31`, `38;5;208`, `` = reset) to a style, returning the new style. */
function applySgr(style: AnsiStyle, params: string): AnsiStyle {
  const codes = params === "" ? [0] : params.split(/[;:]/).map((p) => (p === "" ? 0 : Number(p)));
  const next = { ...style };
  for (let i = 0; i < codes.length; i++) {
    const c = codes[i]!;
    if (c === 0) for (const key of Object.keys(next) as (keyof AnsiStyle)[]) delete next[key];
    else if (c === 1) next.bold = true;
    else if (c === 2) next.dim = true;
    else if (c === 3) next.italic = true;
    else if (c === 4) next.underline = true;
    else if (c === 22) {
      delete next.bold;
      delete next.dim;
    } else if (c === 23) delete next.italic;
    else if (c === 24) delete next.underline;
    else if (c >= 30 && c <= 37) next.color = BASIC[c - 30];
    else if (c >= 90 && c <= 97) next.color = BASIC[c - 90 + 8];
    else if (c === 39) delete next.color;
    else if (c >= 40 && c <= 47) next.background = BASIC[c - 40];
    else if (c >= 100 && c <= 107) next.background = BASIC[c - 100 + 8];
    else if (c === 49) delete next.background;
    else if (c === 38 || c === 48) {
      const key = c === 38 ? "color" : "background";
      let value: string | undefined;
      if (codes[i + 1] === 5) {
        value = color256(codes[i + 2]!);
        i += 2;
      } else if (codes[i + 1] === 2) {
        value = rgb(codes[i + 2]!, codes[i + 3]!, codes[i + 4]!);
        i += 4;
      } else break; // malformed: ignore the rest of this sequence
      if (value) next[key] = value;
    }
  }
  return next;
}

/** CSI sequences (ESC [ … final byte), OSC sequences (ESC ] … BEL or ESC \), and other two-byte escapes. */
const ESCAPE = /\x1b\[([0-?]*)([ -/]*)([@-~])|\x1b\][\s\S]*?(?:\x07|\x1b\\)|\x1b[@-Z\\-_]|\x9b([0-?]*)([@-~])/g;

/** The line's text as styled runs, with every escape sequence gone; the style resets at the end of the line. */
export function parseAnsi(line: string): AnsiRun[] {
  const runs: AnsiRun[] = [];
  let style: AnsiStyle = {};
  let last = 0;
  const push = (text: string) => {
    if (!text) return;
    const prev = runs.at(-1);
    if (prev && sameStyle(prev.style, style)) prev.text += text;
    else runs.push({ text, style });
  };
  for (const m of line.matchAll(ESCAPE)) {
    push(line.slice(last, m.index));
    last = m.index + m[0].length;
    if (m[3] === "m" && !m[2]) style = applySgr(style, m[1]!);
    else if (m[5] === "m") style = applySgr(style, m[4]!);
  }
  push(line.slice(last));
  // A stray ESC or other control character left over (not tab) would show as a box: drop it.
  for (const run of runs) run.text = run.text.replace(/[\x00-\x08\x0b-\x1f\x7f]/g, "");
  return runs.filter((r) => r.text);
}

/** The line without any escape sequences (for searching and copying). */
export const stripAnsi = (line: string) =>
  parseAnsi(line)
    .map((r) => r.text)
    .join("");

function sameStyle(a: AnsiStyle, b: AnsiStyle): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)] as (keyof AnsiStyle)[]);
  for (const k of keys) if (a[k] !== b[k]) return false;
  return true;
}
