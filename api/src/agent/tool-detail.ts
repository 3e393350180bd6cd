/**
 * What a tool badge opens to, for a person rather than the model: the edits of an edit_file as removed and
 * added text, the file a write_file wrote (a link opens it), a command with its output. Read from the call's
 * own arguments and result once it succeeded; other tools have none (their badge shows the result text).
 *
 * @example
 * toolDetail("edit_file", '{"path":"a.ts","search":"x","replace":"y"}', "Edited a.ts");
 * // { kind: "diff", path: "a.ts", edits: [{ removed: "x", added: "y" }] }
 */
import type { ToolDetail } from "@shared/events/stream";
import { clip } from "./tools/define-tool";
import { parseLooseJson } from "./tools/loose-arguments";

const MAX_EDIT_CHARS = 4_000;
const MAX_OUTPUT_CHARS = 6_000;
const MAX_EDITS = 20;

export function toolDetail(name: string, rawArguments: string, result: string): ToolDetail | undefined {
  let args: Record<string, unknown>;
  try {
    const parsed = parseLooseJson(rawArguments || "{}");
    if (!parsed || typeof parsed !== "object") return undefined;
    args = parsed as Record<string, unknown>;
  } catch {
    return undefined;
  }
  const path = typeof args.path === "string" ? args.path : null;
  if (name === "write_file" && path) return { kind: "file", path };
  if (name === "edit_file" && path) {
    const list = Array.isArray(args.edits) ? args.edits : [{ search: args.search, replace: args.replace }];
    const edits = list
      .filter((e): e is { search: string; replace: string } => typeof e?.search === "string" && typeof e?.replace === "string")
      .slice(0, MAX_EDITS)
      .map((e) => ({ removed: clip(e.search, MAX_EDIT_CHARS), added: clip(e.replace, MAX_EDIT_CHARS) }));
    return edits.length ? { kind: "diff", path, edits } : { kind: "file", path };
  }
  if (name === "run_shell" && typeof args.command === "string") return { kind: "command", command: args.command, output: clip(result, MAX_OUTPUT_CHARS) };
  return undefined;
}
