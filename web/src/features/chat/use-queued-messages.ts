/**
 * Messages written while a run is going: queued (shown as such, each cancellable) and sent one at a time,
 * in order, as soon as the chat is idle again, through the chat's usual send.
 *
 * @example
 * const queue = useQueuedMessages(chat);
 * if (chat.sending) queue.add({ text, attachments, enableReasoning, mode }); // instead of sending
 */
import { useCallback, useEffect, useState } from "react";
import type { SendInput, SendOutcome } from "./use-chat-session";

export type QueuedMessage = SendInput & { id: string };

type Chat = { sending: boolean; send: (input: SendInput) => Promise<SendOutcome> };

/** `onRefused`: a queued message the server would not take (its toast already said why), for the draft. */
export function useQueuedMessages(chat: Chat, onRefused: (message: QueuedMessage) => void) {
  const [queue, setQueue] = useState<QueuedMessage[]>([]);
  const { sending, send } = chat;

  useEffect(() => {
    const next = queue[0];
    if (sending || !next) return;
    setQueue((list) => list.filter((m) => m.id !== next.id));
    void send(next).then((outcome) => {
      // Another send got there first (a "Fix with AI" message, say): this one waits for the next turn.
      if (outcome === "blocked") setQueue((list) => [next, ...list]);
      else if (outcome === "refused") onRefused(next);
    });
  }, [sending, queue, send, onRefused]);

  const add = useCallback((message: SendInput) => setQueue((list) => [...list, { ...message, id: crypto.randomUUID() }]), []);
  const cancel = useCallback((id: string) => setQueue((list) => list.filter((m) => m.id !== id)), []);
  return { queue, add, cancel };
}
