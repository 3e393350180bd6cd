/**
 * The one fold of the chat stream: the assistant answer a run is writing, built event by event. The web's
 * live run (what the chat shows while it streams) and the server's run recorder (what it saves) are both
 * this fold; `toSavedMessage` turns it into the message as saved, while the run goes and when it ends.
 *
 * In-progress steps (a `chunk` with `step: "in_progress"`, e.g. 'Installing zod') are decided here, once:
 * - Live, the fold keeps every chunk as sent, so a step in progress shows as in progress. A step is
 *   *settled* by the next step line or by the end of the tool call it ran in (`tool_complete`), and the
 *   fold remembers which are still open (`openSteps`).
 * - Saved, settled in-progress lines are left out (their 'Installed zod' twin, or the tool badge, says what
 *   happened; the lines' leading line breaks stay, so the next text does not run into the previous line).
 *   A step still open is kept as it is while the run goes; when the run ends complete it is left out (a
 *   finished run has no step stuck in progress), and when it ends stopped or failed it is kept, marked
 *   `(not finished)`: the chat draws it as a step that did not complete.
 * - Tool badges still in progress when a run ends are closed with a result saying they did not finish
 *   (a badge has no 'failed' state). Saved actions are the completed ones.
 *
 * Pure and immutable (each event returns a new fold), with no runtime imports, so the browser bundle and
 * the server share it.
 *
 * @example
 * let fold = emptyRunFold();
 * for (const event of events) fold = foldStreamEvent(fold, event);
 * const saved = toSavedMessage(fold, "stopped");
 */
import type { ActionStep, ToolCall } from "../schemas/message";
import type { RunStatus, StreamEvent, TokenUsage } from "./stream";

/** An in-progress step line in `content`: `[start, end)` is the line with its line break, leading breaks excluded. */
export type FoldedStep = { start: number; end: number };

export type RunFold = {
  /** The answer as streamed: text and step lines, in-progress ones included. */
  content: string;
  thinking: string;
  toolCalls: ToolCall[];
  /** Steps as streamed (in progress too); `actions_completed` replaces the completed ones with the run's list. */
  actions: ActionStep[];
  /** 'streaming' until `done` (or an `error`, which makes it 'failed'). */
  status: "streaming" | RunStatus;
  /** The stream's `error` event, if any. */
  error: string | null;
  usage: TokenUsage | null;
  messageId: string | null;
  /** True once `done` arrived: a stream that ends without it was cut. */
  done: boolean;
  /** In-progress step lines already settled by a later step or the end of their tool call. */
  settledSteps: FoldedStep[];
  /** In-progress step lines nothing has settled yet. */
  openSteps: FoldedStep[];
  /** The secret the agent is waiting for (request_secret), until its tool call completes or the run ends. */
  secretRequest: { name: string; reason: string } | null;
  /** The run's place in the line for the model (MODEL_MAX_CONCURRENCY) while it waits; null otherwise. */
  queued: number | null;
};

/** The assistant message as saved (`RunStore.saveProgress` / `finish`). */
export type SavedRunMessage = { content: string; thinking: string | null; toolCalls: ToolCall[]; actions: ActionStep[]; usage: TokenUsage | null };

export const STOPPED_NOTE = "_(Stopped by the user.)_";
export const EMPTY_ANSWER = "(The model sent an empty answer.)";
/** Appended to an in-progress step line of a run that ended before the step did. */
export const UNFINISHED_STEP = " (not finished)";

export function emptyRunFold(): RunFold {
  return {
    content: "",
    thinking: "",
    toolCalls: [],
    actions: [],
    status: "streaming",
    error: null,
    usage: null,
    messageId: null,
    done: false,
    settledSteps: [],
    openSteps: [],
    secretRequest: null,
    queued: null,
  };
}

export function foldStreamEvent(fold: RunFold, event: StreamEvent): RunFold {
  switch (event.type) {
    case "chunk":
      return foldChunk(fold, event.content, event.step);
    case "thinking":
      return { ...fold, thinking: fold.thinking + event.content };
    case "action":
      return { ...fold, actions: [...fold.actions, event.action] };
    case "actions_completed":
      // The in-progress steps stay: the live answer still shows their lines, as steps.
      return { ...fold, actions: [...fold.actions.filter((a) => a.status !== "completed"), ...event.actions] };
    case "tool_start":
      return { ...fold, toolCalls: applyToolStart(fold.toolCalls, event) };
    case "tool_complete":
      // The tool's steps have ended with it, whatever they said.
      return {
        ...settleOpenSteps(fold),
        toolCalls: applyToolComplete(fold.toolCalls, event),
        secretRequest: event.name === "request_secret" ? null : fold.secretRequest,
      };
    case "secret_request":
      return { ...fold, secretRequest: { name: event.name, reason: event.reason } };
    case "queued":
      return { ...fold, queued: event.position > 0 ? event.position : null };
    case "error":
      return { ...fold, error: event.message, status: "failed" };
    case "done":
      return {
        ...fold,
        secretRequest: null,
        queued: null,
        done: true,
        status: event.status ?? (fold.error ? "failed" : "complete"),
        usage: event.usage ?? fold.usage,
        messageId: event.messageId ?? fold.messageId,
      };
  }
}

function foldChunk(fold: RunFold, content: string, step: "in_progress" | "completed" | "warning" | undefined): RunFold {
  const next = step ? settleOpenSteps(fold) : fold;
  const joined = { ...next, content: fold.content + content };
  if (step !== "in_progress") return joined;
  const start = fold.content.length + (/^\n*/.exec(content)?.[0].length ?? 0);
  const end = fold.content.length + content.length;
  return start < end ? { ...joined, openSteps: [...next.openSteps, { start, end }] } : joined;
}

function settleOpenSteps(fold: RunFold): RunFold {
  if (fold.openSteps.length === 0) return fold;
  return { ...fold, settledSteps: [...fold.settledSteps, ...fold.openSteps], openSteps: [] };
}

/** tool_start adds an in-progress badge. */
export function applyToolStart(calls: ToolCall[], event: { name: string; summary: string }): ToolCall[] {
  return [...calls, { name: event.name, summary: event.summary, status: "in_progress" }];
}

/**
 * tool_complete completes the first in-progress badge of the same name (its summary, first written from
 * the call's arguments as they streamed, is replaced by the finished one), or adds a completed one when
 * there is none.
 */
export function applyToolComplete(calls: ToolCall[], event: { name: string; summary: string; result: string; detail?: ToolCall["detail"] }): ToolCall[] {
  const done: ToolCall = {
    name: event.name,
    summary: event.summary,
    status: "completed",
    result: event.result,
    ...(event.detail ? { detail: event.detail } : {}),
  };
  const index = calls.findIndex((c) => c.name === event.name && c.status === "in_progress");
  if (index === -1) return [...calls, done];
  return calls.map((c, i) => (i === index ? done : c));
}

/**
 * The message as saved: `running` while the run goes (progress saves), else how it ended. An ended run's
 * message says what happened (`stopNote` for a stop, the error for a failure) and settles unfinished badges;
 * see the module doc for its in-progress steps.
 */
export function toSavedMessage(fold: RunFold, status: RunStatus | "running", stopNote = STOPPED_NOTE): SavedRunMessage {
  const toolCalls = fold.toolCalls.map((t) => ({ ...t }));
  const saved: SavedRunMessage = {
    content: savedContent(fold, status),
    thinking: fold.thinking || null,
    toolCalls,
    actions: fold.actions.filter((a) => a.status === "completed"),
    usage: fold.usage,
  };
  if (status === "running") return saved;

  const note = status === "stopped" ? stopNote : status === "failed" ? `**Error:** ${fold.error ?? "the run ended unexpectedly."}` : "";
  if (note) saved.content = saved.content.trim() ? `${saved.content.trimEnd()}\n\n${note}` : note;
  else if (!saved.content.trim() && toolCalls.length === 0) saved.content = EMPTY_ANSWER;
  const unfinished = status === "stopped" ? "(stopped before it finished)" : "(interrupted before it finished)";
  saved.toolCalls = toolCalls.map((t) => (t.status === "in_progress" ? { ...t, status: "completed", result: unfinished } : t));
  return saved;
}

/** The content less its settled in-progress lines; open ones as the module doc says for `status`. */
function savedContent(fold: RunFold, status: RunStatus | "running"): string {
  const edits = [
    ...fold.settledSteps.map((s) => ({ ...s, keep: "" })),
    ...fold.openSteps.map((s) => ({ ...s, keep: openStepLine(fold.content.slice(s.start, s.end), status) })),
  ].sort((a, b) => a.start - b.start);
  let out = "";
  let at = 0;
  for (const edit of edits) {
    out += fold.content.slice(at, edit.start) + edit.keep;
    at = edit.end;
  }
  return out + fold.content.slice(at);
}

function openStepLine(line: string, status: RunStatus | "running"): string {
  if (status === "running") return line;
  if (status === "complete") return "";
  const text = line.replace(/\n+$/, "");
  return `${text}${UNFINISHED_STEP}${line.slice(text.length)}`;
}
