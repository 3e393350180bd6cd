/**
 * One round of tool calls from a model reply, run in order: each shows as a badge (`tool_start`, then
 * `tool_complete` with its result clipped for the badge) and its result goes back to the model under its
 * call id. This is the one place a tool's result leaves the agent, to the chat and to the model.
 *
 * @example
 * const { round, endsRun } = await runToolRound(turn.toolCalls, { tools, context, emit, messages });
 */
import type { StreamEvent } from "@shared/events/stream";
import type { ChatMessage, ToolCallRequest } from "./chat-message";
import { clipLines } from "./clip-lines";
import type { RoundCall } from "./stuck";
import { clip, type Tool, type ToolContext } from "./tools/define-tool";
import { executeToolCall, previewSummary } from "./tools/execute";

const TOOL_RESULT_FOR_MODEL = 20_000;
const TOOL_RESULT_FOR_BADGE = 2_000;

export type ToolRound = {
  /** The calls as run, for the stuck detector. */
  round: RoundCall[];
  /** Set when a call must end the run (an account limit): the message it ends with. Later calls are not run. */
  endsRun?: string;
};

export async function runToolRound(
  calls: ToolCallRequest[],
  o: { tools: Tool[]; context: ToolContext; emit(event: StreamEvent): void; messages: ChatMessage[] },
): Promise<ToolRound> {
  const round: RoundCall[] = [];
  for (const call of calls) {
    const tool = o.tools.find((t) => t.name === call.name);
    o.emit({ type: "tool_start", name: call.name, summary: previewSummary(tool, call.arguments) });
    const outcome = await executeToolCall(o.tools, call.name, call.arguments, o.context);
    o.emit({ type: "tool_complete", name: call.name, summary: outcome.summary, result: clip(outcome.result, TOOL_RESULT_FOR_BADGE) });
    o.messages.push({ role: "tool", toolCallId: call.id, content: clipLines(outcome.result, (t) => t.length <= TOOL_RESULT_FOR_MODEL, TOOL_RESULT_FOR_MODEL) });
    round.push({ name: call.name, arguments: call.arguments, ok: outcome.ok, result: outcome.result });
    if (outcome.endsRun) return { round, endsRun: outcome.endsRun };
  }
  return { round };
}
