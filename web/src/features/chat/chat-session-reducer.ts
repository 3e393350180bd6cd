/**
 * The chat session's states and how each happening moves it, as one pure reducer: idle → sending (the
 * message posted, no answer yet) → streaming (a run's events folded into the live answer by the chat
 * stream's one fold, shared/src/events/fold-stream-event.ts, which the server's run recorder also uses) →
 * idle again when the turn ends (done, dropped, refused or abandoned). Reattaching to a run already going
 * goes straight to streaming. What the session does about each (requests, toasts, refetches) is
 * use-chat-session.ts's.
 *
 * @example
 * let s = idleChatSession;
 * s = reduceChatSession(s, { type: "sent", user, baseline: 3, hidden: false });
 * s = reduceChatSession(s, { type: "opened" });
 * s = reduceChatSession(s, { type: "event", event: { type: "chunk", content: "Hi" } });
 */
import { emptyRunFold, foldStreamEvent } from "@shared/events/fold-stream-event";
import type { StreamEvent } from "@shared/events/stream";
import type { Message } from "@shared/schemas/message";
import type { ToastInput } from "../../components/ui/use-toast";
import type { PendingTurn } from "./pending-turn";

export type ChatPhase = "idle" | "sending" | "streaming";

/** How a turn ended: its stream finished (`done`), was cut (`dropped`), the server said no (`refused`), or the chat went away (`abandoned`). */
export type TurnEnd = "done" | "dropped" | "refused" | "abandoned";

export type ChatSession = {
  phase: ChatPhase;
  /** The turn in flight, shown in the conversation; null when idle. */
  turn: PendingTurn | null;
  /** Stop was asked for and the server has not ended the run yet. */
  stopping: boolean;
  /** The tab was hidden at some time during this turn: its end is then told by a toast. */
  hiddenDuringTurn: boolean;
  /** The toast of a turn that ended while the tab was hidden, shown again when the tab is shown. */
  backgroundNote: ToastInput | null;
  /** Dropped streams of this turn so far: the session follows the run again after the first only. */
  drops: number;
};

export type ChatAction =
  | { type: "sent"; user: Message; baseline: number; hidden: boolean }
  | { type: "attached"; hidden: boolean; by?: string }
  | { type: "opened" }
  | { type: "event"; event: StreamEvent }
  | { type: "tab-hidden" }
  | { type: "stop-asked" }
  | { type: "stop-refused" }
  | { type: "ended"; end: TurnEnd }
  | { type: "note-kept"; note: ToastInput }
  | { type: "note-shown" };

export const idleChatSession: ChatSession = { phase: "idle", turn: null, stopping: false, hiddenDuringTurn: false, backgroundNote: null, drops: 0 };

/** A dropped stream is followed again once per turn, not forever. */
export const MAX_RESUMES = 1;

export function reduceChatSession(s: ChatSession, action: ChatAction): ChatSession {
  switch (action.type) {
    case "sent":
      return {
        ...s,
        phase: "sending",
        turn: { user: action.user, baseline: action.baseline, run: emptyRunFold() },
        hiddenDuringTurn: action.hidden,
        backgroundNote: null,
        drops: 0,
      };
    case "attached":
      // A run started elsewhere (another tab, Fix with AI) or followed again after a drop: no message of ours.
      // `by`: another member's run, told by the project socket, is shown with their name.
      return {
        ...s,
        phase: "streaming",
        turn: { user: null, baseline: 0, run: emptyRunFold(), ...(action.by ? { by: action.by } : {}) },
        hiddenDuringTurn: action.hidden,
        backgroundNote: null,
      };
    case "opened":
      return s.phase === "sending" ? { ...s, phase: "streaming" } : s;
    case "event":
      return s.turn ? { ...s, turn: { ...s.turn, run: foldStreamEvent(s.turn.run, action.event) } } : s;
    case "tab-hidden":
      return s.phase !== "idle" && !s.hiddenDuringTurn ? { ...s, hiddenDuringTurn: true } : s;
    case "stop-asked":
      return s.phase !== "idle" ? { ...s, stopping: true } : s;
    case "stop-refused":
      return s.stopping ? { ...s, stopping: false } : s;
    case "ended": {
      const drops = action.end === "done" ? 0 : action.end === "dropped" ? s.drops + 1 : s.drops;
      return { ...s, phase: "idle", turn: null, stopping: false, hiddenDuringTurn: false, drops };
    }
    case "note-kept":
      return { ...s, backgroundNote: action.note };
    case "note-shown":
      return s.backgroundNote ? { ...s, backgroundNote: null } : s;
  }
}

/** After a drop: whether to follow the run again (it may still be going at the server). */
export function mayResume(s: ChatSession): boolean {
  return s.drops <= MAX_RESUMES;
}
