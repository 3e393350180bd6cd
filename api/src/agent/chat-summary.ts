/**
 * A chat grown past the context window keeps its older part as a model-written note, stored through the
 * `ConversationSource` and reused by later runs, instead of silently dropping the oldest messages. A
 * later summary folds the earlier one in, so there is only ever one note per project.
 *
 * @example
 * const messages = await startingConversation({ loaded, excludeIds, content, images, tools, limits, vision,
 *   model, saveSummary, projectId, signal, logger });
 */
import type { Message } from "@shared/schemas/message";
import type { Logger } from "../lib/logger";
import type { ChatImage, ChatMessage } from "./chat-message";
import type { CountTokens } from "./context-window";
import { buildConversation } from "./conversation";
import type { ModelClient } from "./model";
import { runModelTurn } from "./model-stream";
import { transcriptOf } from "./history";
import type { AgentLimits } from "./loop";
import type { ConversationProject, ConversationSummary } from "./ports";
import type { Tool } from "./tools/define-tool";

const CHAT_SUMMARY_PROMPT =
  "You compress the older part of a chat between a user and an AI app builder so the builder can continue without it. " +
  "Write a compact note (at most 300 words): what the user asked for and decided, what was built (files, commands, " +
  "the app's state), problems still open. Plain sentences, no tool-call syntax, no code.";

export async function summariseChat(o: {
  client: ModelClient;
  model: string;
  previous: ConversationSummary | null | undefined;
  omitted: Message[];
  signal: AbortSignal;
  limits: AgentLimits;
}): Promise<string> {
  const earlier = o.previous ? `Earlier summary:\n${o.previous.content}\n\n` : "";
  // Characters, roughly three per token: the summariser's own request must fit the window too.
  const room = Math.max(4_000, (o.limits.contextTokens - 1_500) * 3);
  let transcript = transcriptOf(o.omitted);
  if (earlier.length + transcript.length > room) transcript = `…\n${transcript.slice(-(room - earlier.length))}`;
  const turn = await runModelTurn({
    client: o.client,
    model: o.model,
    messages: [
      { role: "system", content: CHAT_SUMMARY_PROMPT },
      { role: "user", content: `${earlier}Messages to summarise:\n${transcript}` },
    ],
    tools: [],
    enableReasoning: false,
    maxOutputTokens: Math.min(o.limits.maxOutputTokens, 1_024),
    signal: o.signal,
    idleTimeoutMs: o.limits.idleTimeoutMs,
    maxRetries: o.limits.maxRetries,
    maxRetryWaitMs: o.limits.maxRetryWaitMs,
    backoffBaseMs: o.limits.backoffBaseMs,
    onText: () => {},
    onThinking: () => {},
  });
  return turn.text.trim();
}

/**
 * The messages a run starts from: the stored summary in place of the messages it covers, and when the
 * rest still does not fit, a new summary (stored for later runs) of what had to be left out. A summary
 * that fails leaves the run with the trimmed history, which is still a working conversation.
 */
export async function startingConversation(o: {
  loaded: { project: ConversationProject; messages: Message[]; summary?: ConversationSummary | null };
  excludeIds: string[];
  content: string;
  images: ChatImage[];
  tools: Tool[];
  limits: AgentLimits;
  vision: boolean;
  countTokens?: CountTokens;
  model: { client: ModelClient; name: string };
  saveSummary?: (projectId: string, summary: ConversationSummary) => Promise<void>;
  projectId: string;
  signal: AbortSignal;
  logger: Logger;
}): Promise<ChatMessage[]> {
  const build = (summary: ConversationSummary | null | undefined) =>
    buildConversation({
      ...o.loaded,
      summary,
      excludeIds: o.excludeIds,
      content: o.content,
      images: o.images,
      tools: o.tools,
      contextTokens: o.limits.contextTokens,
      maxOutputTokens: o.limits.maxOutputTokens,
      vision: o.vision,
      countTokens: o.countTokens,
    });
  const conversation = build(o.loaded.summary);
  if (conversation.omitted.length === 0 || !o.saveSummary) return conversation.messages;
  try {
    const content = await summariseChat({
      client: o.model.client,
      model: o.model.name,
      previous: o.loaded.summary,
      omitted: conversation.omitted,
      signal: o.signal,
      limits: o.limits,
    });
    if (!content) return conversation.messages;
    const summary = { upToMessageId: conversation.omitted.at(-1)!.id, content };
    await o.saveSummary(o.projectId, summary);
    return build(summary).messages;
  } catch (error) {
    if (o.signal.aborted) throw error;
    o.logger.warn("chat summary failed; older messages are left out instead", { projectId: o.projectId, error: String(error) });
    return conversation.messages;
  }
}
