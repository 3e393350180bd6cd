/**
 * Tool badges: tool_start adds an in-progress entry; tool_complete completes the first
 * in-progress entry of the same name, or adds a completed one when there is none (the stream's fold,
 * shared/src/events/fold-stream-event.ts, does both). A shell tool whose
 * summary says a server started ('npm run dev', 'npm start', 'Started:') shows as completed even while in
 * progress: a server never "finishes".
 */
import type { ToolCall } from "@shared/schemas/message";

export { applyToolComplete, applyToolStart } from "@shared/events/fold-stream-event";

export type ToolKind = "create_boilerplate" | "write_file" | "edit_file" | "run_shell" | "run_code" | "default";

const KNOWN: ReadonlySet<string> = new Set(["create_boilerplate", "write_file", "edit_file", "run_shell", "run_code"]);
const SERVER_START_MARKERS = ["npm run dev", "npm start", "Started:"];

export function toolKind(name: string): ToolKind {
  return KNOWN.has(name) ? (name as ToolKind) : "default";
}

export function isShellTool(name: string): boolean {
  return name === "run_shell" || /shell/i.test(name);
}

/** The status a badge shows: the stored one, except the shell server-start rule. */
export function displayedToolStatus(call: Pick<ToolCall, "name" | "summary" | "status">): ToolCall["status"] {
  if (call.status === "in_progress" && isShellTool(call.name) && SERVER_START_MARKERS.some((m) => call.summary.includes(m))) {
    return "completed";
  }
  return call.status;
}
