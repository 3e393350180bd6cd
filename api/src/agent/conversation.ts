/**
 * What the model is sent at the start of a run: the system prompt (project, files, tools), the earlier
 * conversation trimmed to the context budget, and the new message with its images. Pure: the project and
 * its messages come from the run's `ConversationSource`.
 */
import type { Message } from "@shared/schemas/message";
import type { ChatImage, ChatMessage } from "./chat-message";
import { buildHistory, estimateTokens } from "./history";
import { OUTPUT_RESERVE_TOKENS } from "./loop";
import type { ConversationProject } from "./ports";
import { systemPrompt } from "./prompts/system";
import type { Tool } from "./tools/define-tool";
import { toToolSpecs } from "./tools/registry";

/** What one image costs in context, roughly (providers count 85–1,500 tokens by size and detail). */
const IMAGE_TOKENS = 1_000;

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
}): ChatMessage[] {
  const toolsSize = estimateTokens(JSON.stringify(toToolSpecs(o.tools)));
  const fixed = estimateTokens(systemPrompt(o.project, o.tools)) + toolsSize + estimateTokens(o.content) + o.images.length * IMAGE_TOKENS;
  const budget = Math.max(0, o.contextTokens - OUTPUT_RESERVE_TOKENS - fixed - 200);

  const previous = o.messages.filter((m) => !o.excludeIds.includes(m.id));
  const history = buildHistory(previous, budget);
  const notes: string[] = [];
  if (history.omittedMessages > 0) {
    notes.push(`The ${history.omittedMessages} oldest messages of this chat are not shown: the conversation is longer than the context window.`);
  }
  if (history.omittedToolResults > 0) notes.push("Some older tool results were removed from the history to save space.");

  const user: ChatMessage = o.images.length ? { role: "user", content: o.content, images: o.images } : { role: "user", content: o.content };
  // The history must not end on a user turn right before this one (strict templates want alternation).
  const last = history.messages.at(-1);
  if (last?.role === "user") history.messages.push({ role: "assistant", content: "(no answer was saved for this message)" });
  return [{ role: "system", content: systemPrompt(o.project, o.tools, notes) }, ...history.messages, user];
}
