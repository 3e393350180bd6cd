/** Sends the messages queued for this project's chat (chat-outbox.ts) whenever the chat is idle. */
import { useEffect, useState } from "react";
import { returnChatMessage, subscribeChatOutbox, takeChatMessage } from "./chat-outbox";
import type { SendInput, SendOutcome } from "./use-chat-session";

export function useChatOutbox(projectId: string, chat: { sending: boolean; send: (input: SendInput) => Promise<SendOutcome> }) {
  const [queuedAt, setQueuedAt] = useState(0);
  useEffect(() => subscribeChatOutbox(() => setQueuedAt(Date.now())), []);
  const { sending, send } = chat;
  useEffect(() => {
    if (sending) return;
    const text = takeChatMessage(projectId);
    if (text === null) return;
    void send({ text, attachments: [], enableReasoning: false }).then((outcome) => {
      // Busy after all (a run was still being picked up): tried again when the chat is next idle.
      if (outcome === "blocked") returnChatMessage(projectId, text);
      // This chat went away mid-send (the page re-mounted it, say) before the server had it: the chat
      // mounted now, which already looked at an empty queue, is told to send it.
      if (outcome === "abandoned") returnChatMessage(projectId, text, { notify: true });
    });
  }, [projectId, sending, send, queuedAt]);
}
