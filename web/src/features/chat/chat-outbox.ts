/**
 * Messages another screen asks the chat to send for the user ("Fix with AI" in the Preview's Problems
 * panel): queued per project, then sent by the chat view through its usual send path once it is open and
 * idle, so the message shows in the conversation and the agent starts, exactly as if typed.
 *
 * @example
 * queueChatMessage(projectId, "Fix this problem…");
 * navigate(projectPath(projectId, "chat"));
 */
const queued = new Map<string, string[]>();
const listeners = new Set<() => void>();

export function queueChatMessage(projectId: string, text: string): void {
  queued.set(projectId, [...(queued.get(projectId) ?? []), text]);
  for (const listener of listeners) listener();
}

/** The oldest queued message of the project, removed from the queue; null when there is none. */
export function takeChatMessage(projectId: string): string | null {
  const list = queued.get(projectId);
  const text = list?.shift() ?? null;
  if (list?.length === 0) queued.delete(projectId);
  return text;
}

/**
 * Puts a message that could not be sent yet back at the front. `notify` wakes the chats listening (one that
 * mounted meanwhile); without it the same chat tries again when it is next idle.
 */
export function returnChatMessage(projectId: string, text: string, o: { notify?: boolean } = {}): void {
  queued.set(projectId, [text, ...(queued.get(projectId) ?? [])]);
  if (o.notify) for (const listener of listeners) listener();
}

export function subscribeChatOutbox(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
