/**
 * The chat message "Fix with AI" sends: the problem(s) quoted as the Problems panel shows them, with the
 * start of each stack or code frame, so the agent knows what broke and where without asking.
 *
 * @example
 * fixPrompt([problem]); // "Fix this problem in the app's preview:\n\n[browser] Uncaught Error: boom — src/App.tsx:7\n…"
 */
import type { Problem } from "@shared/schemas/problems";

const DETAIL_LINES = 12;
const MAX_PROMPT_CHARS = 8_000;

export function problemPlace(p: Pick<Problem, "file" | "line">): string | null {
  if (!p.file) return null;
  return p.line ? `${p.file}:${p.line}` : p.file;
}

function quote(p: Problem): string {
  const place = problemPlace(p);
  const head = `[${p.source}] ${p.message}${place ? ` — ${place}` : ""}${p.count > 1 ? ` (seen ${p.count} times)` : ""}`;
  const detail = p.detail?.split("\n").slice(0, DETAIL_LINES).join("\n").trim();
  return detail ? `${head}\n\`\`\`\n${detail}\n\`\`\`` : head;
}

export function fixPrompt(problems: Problem[]): string {
  const intro = problems.length === 1 ? "Fix this problem in the app's preview:" : `Fix these ${problems.length} problems in the app's preview:`;
  const body = problems.length === 1 ? quote(problems[0]!) : problems.map((p, i) => `${i + 1}. ${quote(p)}`).join("\n\n");
  const text = `${intro}\n\n${body}`;
  return text.length > MAX_PROMPT_CHARS ? `${text.slice(0, MAX_PROMPT_CHARS)}\n…` : text;
}
