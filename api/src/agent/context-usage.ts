/**
 * The context meter: how many tokens the next request would send for the conversation as it stands (the
 * system prompt with the project's files, the tool schemas, the history as it would be trimmed, and the
 * stored summary), so the chat can show how full the model's window is before the person types.
 *
 * @example
 * const used = conversationTokens({ loaded, tools, contextTokens: 32_768, maxOutputTokens: 4_096, vision: true });
 */
import { TokenMeter, type CountTokens } from "./context-window";
import { buildConversation } from "./conversation";
import type { ConversationProject, ConversationSummary } from "./ports";
import type { Message } from "@shared/schemas/message";
import type { Tool } from "./tools/define-tool";
import { toToolSpecs } from "./tools/registry";

export function conversationTokens(o: {
  loaded: { project: ConversationProject; messages: Message[]; summary?: ConversationSummary | null };
  tools: Tool[];
  contextTokens: number;
  maxOutputTokens: number;
  vision: boolean;
  countTokens?: CountTokens;
}): number {
  const { messages } = buildConversation({
    ...o.loaded,
    excludeIds: [],
    content: "",
    images: [],
    tools: o.tools,
    contextTokens: o.contextTokens,
    maxOutputTokens: o.maxOutputTokens,
    vision: o.vision,
    countTokens: o.countTokens,
  });
  const meter = new TokenMeter(o.countTokens);
  return meter.messages(messages) + meter.text(JSON.stringify(toToolSpecs(o.tools)));
}
