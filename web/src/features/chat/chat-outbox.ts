/**
 * The one way to send the chat a message from elsewhere in the app ("Fix with AI" in the Preview's Problems
 * panel and in the Publish dialog): `sendToChat`. When the project's chat is open, or the caller opens it,
 * the message is queued and the chat sends it through its usual send path once idle, so it shows in the
 * conversation and the agent starts, exactly as if typed. Otherwise the run starts from here and the chat
 * picks it up when opened (it reattaches to a running answer).
 *
 * @example
 * await sendToChat(projectId, fixRequest(log));                                          // chat open or not
 * void sendToChat(projectId, "Fix this problem…", { openChat: () => navigate(chatPath) }); // shown next
 */
import { api } from "../../api/endpoints";
import { createStore } from "../../lib/create-store";

/** The queued messages of each project, oldest first. */
export const chatOutbox = createStore<ReadonlyMap<string, readonly string[]>>(new Map());
/** How many chat views of each project are mounted (two, briefly, when one replaces another). */
const openChats = new Map<string, number>();

/** `openChat`: the caller shows the project's chat now, so the message waits in the queue for it. */
export async function sendToChat(projectId: string, text: string, o: { openChat?: () => void } = {}): Promise<void> {
  // A blank message is one the chat would refuse each time it is offered.
  if (!text.trim()) return;
  if (o.openChat || (openChats.get(projectId) ?? 0) > 0) {
    queue(projectId, (list) => [...list, text]);
    o.openChat?.();
    return;
  }
  const res = await api.messages.stream({ projectId, content: text, enableReasoning: false });
  // The run goes on at the server whether or not this stream is read.
  await res.body?.cancel().catch(() => {});
}

/** The oldest queued message of the project, removed from the queue; null when there is none. */
export function takeChatMessage(projectId: string): string | null {
  const [text = null, ...rest] = chatOutbox.get().get(projectId) ?? [];
  if (text !== null) queue(projectId, () => rest);
  return text;
}

/** Puts a message that could not be sent yet back at the front; the chats of the project hear of it. */
export function returnChatMessage(projectId: string, text: string): void {
  queue(projectId, (list) => [text, ...list]);
}

/** Counts a chat view of the project as open while it is mounted (messages sent to it are then queued). */
export function openChat(projectId: string): () => void {
  openChats.set(projectId, (openChats.get(projectId) ?? 0) + 1);
  return () => {
    const left = (openChats.get(projectId) ?? 1) - 1;
    if (left > 0) openChats.set(projectId, left);
    else openChats.delete(projectId);
  };
}

function queue(projectId: string, update: (list: readonly string[]) => readonly string[]): void {
  chatOutbox.set((current) => {
    const next = new Map(current);
    const list = update(current.get(projectId) ?? []);
    if (list.length) next.set(projectId, list);
    else next.delete(projectId);
    return next;
  });
}
