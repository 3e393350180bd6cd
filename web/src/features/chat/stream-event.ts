/**
 * Reads one `data:` payload of the chat stream into a StreamEvent (shared/src/events/stream.ts). Checked
 * by hand rather than with the shared zod schema, to keep zod out of the browser bundle; an unknown or
 * malformed event is skipped (null) rather than failing the whole stream.
 */
import type { StreamEvent } from "@shared/events/stream";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const isStr = (v: unknown): v is string => typeof v === "string";
const isStep = (v: unknown) => isObj(v) && isStr(v.description) && (v.status === "in_progress" || v.status === "completed");
const isUsage = (v: unknown) => isObj(v) && typeof v.promptTokens === "number" && typeof v.completionTokens === "number" && typeof v.totalTokens === "number";

export function parseStreamEvent(data: string): StreamEvent | null {
  let e: unknown;
  try {
    e = JSON.parse(data);
  } catch {
    return null;
  }
  if (!isObj(e)) return null;
  switch (e.type) {
    case "chunk":
    case "thinking":
      return isStr(e.content) ? (e as StreamEvent) : null;
    case "action":
      return isStep(e.action) ? (e as StreamEvent) : null;
    case "actions_completed":
      return Array.isArray(e.actions) && e.actions.every(isStep) ? (e as StreamEvent) : null;
    case "tool_start":
      return isStr(e.name) && isStr(e.summary) ? (e as StreamEvent) : null;
    case "tool_complete":
      return isStr(e.name) && isStr(e.summary) ? ({ ...e, result: isStr(e.result) ? e.result : "" } as StreamEvent) : null;
    case "secret_request":
      return isStr(e.name) && isStr(e.reason) ? { type: "secret_request", name: e.name, reason: e.reason } : null;
    case "queued":
      return typeof e.position === "number" && Number.isInteger(e.position) && e.position >= 0 ? { type: "queued", position: e.position } : null;
    case "error":
      return { type: "error", message: isStr(e.message) && e.message ? e.message : "Something went wrong" };
    case "done":
      return {
        type: "done",
        messageId: isStr(e.messageId) ? e.messageId : undefined,
        status: e.status === "complete" || e.status === "stopped" || e.status === "failed" ? e.status : undefined,
        usage: isUsage(e.usage) ? (e.usage as { promptTokens: number; completionTokens: number; totalTokens: number }) : null,
      };
    default:
      return null;
  }
}
