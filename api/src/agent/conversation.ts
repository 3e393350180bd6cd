/**
 * What the model is sent at the start of a run: the system prompt (project, files, tools), the earlier
 * conversation trimmed to the context budget, and the new message with its images. Messages covered by
 * the stored summary are replaced by it (in the system prompt's notes); messages that still do not fit are
 * returned as `omitted`, for the run to summarise and store. Pure: the project and its messages come from
 * the run's `ConversationSource`.
 */
import type { Message } from "@shared/schemas/message";
import type { ChatImage, ChatMessage } from "./chat-message";
import { IMAGE_TOKENS, roughTokens, type CountTokens } from "./context-window";
import { buildHistory } from "./history";
import type { ConversationProject, ConversationSummary } from "./ports";
import { systemPrompt } from "./prompts/system";
import type { Tool } from "./tools/define-tool";
import { toToolSpecs } from "./tools/registry";

export function buildConversation(o: {
  project: ConversationProject;
  /** The project's stored messages, oldest first. */
  messages: Message[];
  /** The run's own two messages, already stored: not part of the history. */
  excludeIds: string[];
  content: string;
  images: ChatImage[];
  tools: Tool[];
  contextTokens: number;
  maxOutputTokens: number;
  /** Can the model see images? Without vision they are not sent, and the model is told one was attached. */
  vision: boolean;
  countTokens?: CountTokens;
  summary?: ConversationSummary | null;
}): { messages: ChatMessage[]; omitted: Message[] } {
  const count = o.countTokens ?? roughTokens;
  const images = o.vision ? o.images : [];
  const toolsSize = count(JSON.stringify(toToolSpecs(o.tools)));
  const fixed =
    count(systemPrompt(o.project, o.tools, [], { maxOutputTokens: o.maxOutputTokens })) + toolsSize + count(o.content) + images.length * IMAGE_TOKENS;
  // When the run's own steps later need the room, the loop shortens and summarises (history included).
  const budget = Math.max(0, o.contextTokens - o.maxOutputTokens - fixed - 200);

  let previous = o.messages.filter((m) => !o.excludeIds.includes(m.id));
  const notes: string[] = [];
  let room = budget;
  const covered = o.summary ? previous.findIndex((m) => m.id === o.summary!.upToMessageId) : -1;
  if (covered !== -1) {
    previous = previous.slice(covered + 1);
    notes.push(`Summary of the earlier part of this chat (those messages are not shown):\n${o.summary!.content}`);
    room = Math.max(0, room - count(o.summary!.content));
  }
  const history = buildHistory(previous, room, count);
  if (history.omittedMessages > 0) {
    notes.push(`The ${history.omittedMessages} oldest messages of this chat are not shown: the conversation is longer than the context window.`);
  }
  if (history.omittedToolResults > 0) notes.push("Some older tool results were removed from the history to save space.");

  let content = o.content;
  if (o.images.length && !o.vision) {
    const n = o.images.length;
    content += `\n\n[The user attached ${n === 1 ? "a picture" : `${n} pictures`}, but this model cannot see images: say so if the request depends on ${n === 1 ? "it" : "them"}.]`;
  }
  // Images go only with the message they were attached to; later turns see a note in the history.
  const user: ChatMessage = images.length ? { role: "user", content, images } : { role: "user", content };
  // The history must not end on a user turn right before this one (strict templates want alternation).
  const last = history.messages.at(-1);
  if (last?.role === "user") history.messages.push({ role: "assistant", content: "(no answer was saved for this message)" });
  return {
    messages: [{ role: "system", content: systemPrompt(o.project, o.tools, notes, { maxOutputTokens: o.maxOutputTokens }) }, ...history.messages, user],
    // Only a history cut for room is worth a summary (a leading answer dropped for role order is not).
    omitted: history.omittedForRoom > 0 ? previous.slice(0, history.omittedMessages) : [],
  };
}
