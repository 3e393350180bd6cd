/**
 * The assistant message a run is writing, rebuilt from the run's own events, the same way the chat view
 * builds it: text from chunks, thinking, tool badges (a tool_complete settles the first
 * in-progress call of that name) and action steps. `final` adds what the saved message must say about
 * how the run ended.
 */
import type { RunStatus, StreamEvent, TokenUsage } from "@shared/events/stream";
import type { ActionStep, ToolCall } from "@shared/schemas/message";
import type { RunMessage } from "./ports";

export class RunState {
  content = "";
  thinking = "";
  toolCalls: ToolCall[] = [];
  actions: ActionStep[] = [];
  usage: TokenUsage | null = null;
  error: string | null = null;

  apply(event: StreamEvent): void {
    switch (event.type) {
      case "chunk":
        // 'Creating…'/'Installing…' lines are live progress; the saved answer keeps what completed.
        // Their leading line breaks stay, so the next text does not run into the previous line.
        this.content += event.step === "in_progress" ? (/^\n*/.exec(event.content)?.[0] ?? "") : event.content;
        break;
      case "thinking":
        this.thinking += event.content;
        break;
      case "tool_start":
        this.toolCalls.push({ name: event.name, summary: event.summary, status: "in_progress" });
        break;
      case "tool_complete": {
        const open = this.toolCalls.find((t) => t.name === event.name && t.status === "in_progress");
        if (open) Object.assign(open, { summary: event.summary, status: "completed", result: event.result });
        else this.toolCalls.push({ name: event.name, summary: event.summary, status: "completed", result: event.result });
        break;
      }
      case "action":
        if (event.action.status === "completed") this.actions.push(event.action);
        break;
      case "actions_completed":
        this.actions = event.actions;
        break;
      case "error":
        this.error = event.message;
        break;
      case "done":
        if (event.usage !== undefined) this.usage = event.usage;
        break;
    }
  }

  snapshot(): RunMessage {
    return {
      content: this.content,
      thinking: this.thinking || null,
      toolCalls: this.toolCalls.map((t) => ({ ...t })),
      actions: this.actions.slice(),
      usage: this.usage,
    };
  }

  /** The message as saved when the run ends: says what happened, settles unfinished badges. */
  final(status: RunStatus, stopNote = "_(Stopped by the user.)_"): RunMessage {
    const s = this.snapshot();
    const note =
      status === "stopped" ? stopNote : status === "failed" ? `**Error:** ${this.error ?? "the run ended unexpectedly."}` : "";
    if (note) s.content = s.content.trim() ? `${s.content.trimEnd()}\n\n${note}` : note;
    else if (!s.content.trim() && s.toolCalls.length === 0) s.content = "(The model sent an empty answer.)";
    const unfinished = status === "stopped" ? "(stopped before it finished)" : "(interrupted before it finished)";
    s.toolCalls = s.toolCalls.map((t) => (t.status === "in_progress" ? { ...t, status: "completed", result: unfinished } : t));
    return s;
  }
}
