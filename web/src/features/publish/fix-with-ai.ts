/**
 * "Fix with AI": a failed build's errors go to the project's chat as a message. When the chat screen is
 * open it sends them itself (so the answer streams there, as any message); otherwise the run starts from
 * here and the chat picks it up when opened (it reattaches to a running answer).
 *
 * @example
 * useChatRequests(projectId, (text) => chat.send({ text, attachments: [], enableReasoning: false }));
 * await sendToChat(projectId, fixRequest(log));
 */
import { useEffect } from "react";
import { api } from "../../api/endpoints";

type Sender = (text: string) => unknown;
const senders = new Map<string, Sender>();

const MAX_LOG_CHARS = 6000;

/** The message: what failed and the end of the build log, where the errors are. */
export function fixRequest(log: string): string {
  const tail = log.length > MAX_LOG_CHARS ? `…\n${log.slice(-MAX_LOG_CHARS)}` : log;
  return `Publishing failed: the build (npm run build) did not succeed. Please fix the errors below so the project builds.\n\n\`\`\`\n${tail.trim()}\n\`\`\``;
}

export async function sendToChat(projectId: string, text: string): Promise<void> {
  const sender = senders.get(projectId);
  if (sender) {
    sender(text);
    return;
  }
  const res = await api.messages.stream({ projectId, content: text, enableReasoning: false });
  // The run goes on at the server whether or not this stream is read.
  await res.body?.cancel().catch(() => {});
}

/** Registers the chat screen as the sender of its project's requests while it is mounted. */
export function useChatRequests(projectId: string, send: Sender): void {
  useEffect(() => {
    senders.set(projectId, send);
    return () => {
      if (senders.get(projectId) === send) senders.delete(projectId);
    };
  }, [projectId, send]);
}

/** The chat screen's one-line hook-up, as a component. */
export function ChatRequestBridge({ projectId, send }: { projectId: string; send: Sender }) {
  useChatRequests(projectId, send);
  return null;
}
