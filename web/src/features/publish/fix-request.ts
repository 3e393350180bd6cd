/**
 * "Fix with AI" for a failed build: the message that sends its errors to the project's chat (through
 * chat/chat-outbox.ts's sendToChat, as every message sent to the chat from elsewhere).
 *
 * @example
 * await sendToChat(projectId, fixRequest(log));
 */
const MAX_LOG_CHARS = 6000;

/** The message: what failed and the end of the build log, where the errors are. */
export function fixRequest(log: string): string {
  const tail = log.length > MAX_LOG_CHARS ? `…\n${log.slice(-MAX_LOG_CHARS)}` : log;
  return `Publishing failed: the build (npm run build) did not succeed. Please fix the errors below so the project builds.\n\n\`\`\`\n${tail.trim()}\n\`\`\``;
}
