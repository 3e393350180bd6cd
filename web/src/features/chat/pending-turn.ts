/**
 * What the chat shows while a turn is in flight: the saved history, the user's message (optimistic until the
 * server's copy is fetched) and the streaming answer. The history can be refetched mid-run (returning to the
 * tab), so the server's 'running' copy of the answer, and of the user message once it is there, are hidden
 * in favour of the live ones rather than shown twice.
 */
import { IMAGE_ONLY_CONTENT } from "@shared/constants";
import type { Message } from "@shared/schemas/message";
import type { LiveRun } from "./live-run";

export type PendingTurn = {
  /** The message as sent, shown until the history holds it; null when attaching to a run started elsewhere. */
  user: Message | null;
  /** How many settled messages the history had when the turn was sent. */
  baseline: number;
  run: LiveRun;
  /** Who sent the message of a run another member started (from the socket's `run.started`); absent for my own. */
  by?: string;
};

/** Messages a run is still writing. */
const isRunning = (m: Message) => m.status === "running";

export function settledMessages(history: Message[]): Message[] {
  return history.filter((m) => !isRunning(m));
}

export function visibleHistory(history: Message[], pending: PendingTurn | null): { messages: Message[]; showPendingUser: boolean } {
  if (!pending) return { messages: history, showPendingUser: false };
  const messages = history.filter((m) => !isRunning(m) && m.id !== pending.run.messageId);
  return { messages, showPendingUser: pending.user !== null && messages.length <= pending.baseline };
}

/** What a message saves: its trimmed text, or '(Image uploaded)' for images alone; null when there is nothing to send. */
export function messageContent(text: string, imageCount: number): string | null {
  const trimmed = text.trim();
  if (trimmed) return trimmed;
  return imageCount > 0 ? IMAGE_ONLY_CONTENT : null;
}
