/**
 * The readable first line of an error message (what the list shows and problems are matched by), and the
 * key two reports of the same problem share, whichever way they arrived (page, dev server log, HMR socket).
 */
import type { ProblemSource } from "@shared/schemas/problems";

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;?]*[ -/]*[@-~]/g;
const DECORATION = /^[\s│╭╰─┬┆|^~]*$/;

/** The first line that says something; a line ending in ":" ("Transform failed with 1 error:") takes the next. */
export function headline(message: string): string {
  const lines = message
    .replace(ANSI, "")
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l && !DECORATION.test(l));
  let text = lines[0] ?? "";
  if (text.endsWith(":") && lines[1]) text = `${text} ${lines[1]}`;
  return text.slice(0, 1000);
}

export function dedupeKey(p: { source: ProblemSource; message: string; file: string | null; line: number | null }): string {
  const message = headline(p.message)
    // Preview origins change with every sandbox, and Vite stamps module URLs on each reload.
    .replace(/https?:\/\/[^/\s"')]+/g, "")
    .replace(/\?(?:t|v)=[\w.-]+/g, "")
    .replace(/\s+/g, " ")
    .toLowerCase();
  const hash = new Bun.CryptoHasher("sha256");
  hash.update(`${p.source}\n${message}\n${p.file ?? ""}\n${p.line ?? ""}`);
  return hash.digest("hex");
}
