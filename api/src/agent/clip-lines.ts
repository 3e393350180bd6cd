/**
 * Cutting a tool result to size at line ends, never inside a line, with a hint how to get the rest: a
 * read_file result (its numbered lines) says which startLine reads on; other output says to narrow it.
 * A result of one huge line (minified code) falls back to keeping its head and tail.
 *
 * @example
 * clipLines(result, (text) => text.length <= 20_000);
 */
import { clip } from "./tools/define-tool";

/** The leading lines of `text` that `fits` takes (with the hint), and the hint; `text` itself when it fits. */
export function clipLines(text: string, fits: (text: string) => boolean, maxCharsFallback = 2_000): string {
  if (fits(text)) return text;
  const lines = text.split("\n");
  const withHint = (k: number) => `${lines.slice(0, k).join("\n")}\n${hint(lines, k)}`;
  // The most lines that fit: found by halving (a tokenizer call per try, on at most the whole text).
  let lo = 0;
  let hi = lines.length - 1;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (fits(withHint(mid))) lo = mid;
    else hi = mid - 1;
  }
  if (lo > 0) return withHint(lo);
  return clip(text, maxCharsFallback);
}

function hint(lines: string[], kept: number): string {
  const left = lines.length - kept;
  const lastNumbered = lines
    .slice(0, kept)
    .reverse()
    .map((l) => /^\s*(\d+)\t/.exec(l)?.[1])
    .find(Boolean);
  const readOn = lastNumbered
    ? `read on with startLine: ${Number(lastNumbered) + 1}`
    : "to see the rest, narrow the output (grep, head, tail) or ask for a smaller part";
  return `… (${left} more line${left === 1 ? "" : "s"} left out to fit the model's context window; ${readOn})`;
}
