/**
 * The assistant answer being streamed, built event by event: text and thinking are
 * appended, tool badges follow the tool-calls rules, `error` and `done` close it. Pure, so the view and
 * the tests share it.
 *
 * @example
 * let run = emptyLiveRun();
 * for (const event of events) run = applyStreamEvent(run, event);
 */
import type { StreamEvent, TokenUsage } from "@shared/events/stream";
import type { ActionStep, ToolCall } from "@shared/schemas/message";
import { applyToolComplete, applyToolStart } from "./tool-calls";

export type LiveRunStatus = "streaming" | "complete" | "stopped" | "failed";

export type LiveRun = {
  content: string;
  thinking: string;
  toolCalls: ToolCall[];
  actions: ActionStep[];
  status: LiveRunStatus;
  /** The stream's `error` event, if any. */
  error: string | null;
  usage: TokenUsage | null;
  messageId: string | null;
  /** True once `done` arrived: a stream that ends without it was cut. */
  done: boolean;
  /** The secret the agent is waiting for (request_secret), until its tool call completes or the run ends. */
  secretRequest: { name: string; reason: string } | null;
};

export function emptyLiveRun(): LiveRun {
  return { content: "", thinking: "", toolCalls: [], actions: [], status: "streaming", error: null, usage: null, messageId: null, done: false, secretRequest: null };
}

export function applyStreamEvent(run: LiveRun, event: StreamEvent): LiveRun {
  switch (event.type) {
    case "chunk":
      return { ...run, content: run.content + event.content };
    case "thinking":
      return { ...run, thinking: run.thinking + event.content };
    case "action":
      return { ...run, actions: [...run.actions, event.action] };
    case "actions_completed":
      return { ...run, actions: event.actions };
    case "tool_start":
      return { ...run, toolCalls: applyToolStart(run.toolCalls, event) };
    case "tool_complete":
      return { ...run, toolCalls: applyToolComplete(run.toolCalls, event), secretRequest: event.name === "request_secret" ? null : run.secretRequest };
    case "secret_request":
      return { ...run, secretRequest: { name: event.name, reason: event.reason } };
    case "error":
      return { ...run, error: event.message, status: "failed" };
    case "done":
      return {
        ...run,
        secretRequest: null,
        done: true,
        status: event.status ?? (run.error ? "failed" : "complete"),
        usage: event.usage ?? run.usage,
        messageId: event.messageId ?? run.messageId,
      };
  }
}
