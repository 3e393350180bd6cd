/**
 * The chat's side of chat-outbox.ts: while mounted, the chat counts as open (messages sent to it are queued
 * for it), and it sends its project's queued messages whenever it is idle, as if typed.
 */
import { useEffect, useRef } from "react";
import { useStore } from "../../lib/create-store";
import { chatOutbox, openChat, returnChatMessage, takeChatMessage } from "./chat-outbox";
import type { SendInput, SendOutcome } from "./use-chat-session";

type Chat = { sending: boolean; send: (input: SendInput) => Promise<SendOutcome> };

/** `enableReasoning`: the composer's current choice, as for a message typed there. */
export function useChatOutbox(projectId: string, chat: Chat, enableReasoning: boolean) {
  useEffect(() => openChat(projectId), [projectId]);
  // The project's queue (a new list on each change): a message queued or put back wakes the chat.
  const queued = useStore(chatOutbox, (all) => all.get(projectId));
  const reasoning = useRef(enableReasoning);
  reasoning.current = enableReasoning;
  const { sending, send } = chat;
  useEffect(() => {
    if (sending || !queued?.length) return;
    const text = takeChatMessage(projectId);
    if (text === null) return;
    void send({ text, attachments: [], enableReasoning: reasoning.current }).then((outcome) => {
      // Busy after all (a run was still being picked up), or this chat went away mid-send (the page
      // re-mounted it, say) before the server had it: put back, it is sent when a chat of the project is
      // next idle (the one mounted now, if this one is gone).
      if (outcome === "blocked" || outcome === "abandoned") returnChatMessage(projectId, text);
    });
  }, [projectId, sending, send, queued]);
}
