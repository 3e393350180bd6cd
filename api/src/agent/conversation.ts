/**
 * What the model is sent at the start of a run: the system prompt (project, files, tools), the earlier
 * conversation trimmed to the context budget, and the new message with its images.
 */
import type { ChatCompletionContentPart, ChatCompletionMessageParam } from "openai/resources/chat/completions";
import { listMessages } from "../db/messages";
import type { ServiceContext } from "../services/context";
import { listProjectFiles } from "../services/files";
import { getOwnedProject } from "../services/projects";
import { buildHistory, estimateTokens } from "./history";
import { OUTPUT_RESERVE_TOKENS } from "./loop";
import { systemPrompt } from "./prompts/system";
import type { Tool } from "./tools/define-tool";
import { toOpenAiTools } from "./tools/registry";

/** What one image costs in context, roughly (providers count 85–1,500 tokens by size and detail). */
const IMAGE_TOKENS = 1_000;

export async function buildConversation(
  ctx: ServiceContext,
  o: {
    ownerId: string;
    projectId: string;
    /** The run's own two messages, already stored: not part of the history. */
    excludeIds: string[];
    content: string;
    images: ChatCompletionContentPart[];
    tools: Tool[];
    contextTokens: number;
  },
): Promise<ChatCompletionMessageParam[]> {
  const [project, files, messages] = await Promise.all([
    getOwnedProject(ctx, o.ownerId, o.projectId),
    listProjectFiles(ctx, o.ownerId, o.projectId),
    listMessages(ctx.sql, o.projectId),
  ]);
  const promptProject = { ...project, files };
  const toolsSize = estimateTokens(JSON.stringify(toOpenAiTools(o.tools)));
  const fixed = estimateTokens(systemPrompt(promptProject, o.tools)) + toolsSize + estimateTokens(o.content) + o.images.length * IMAGE_TOKENS;
  const budget = Math.max(0, o.contextTokens - OUTPUT_RESERVE_TOKENS - fixed - 200);

  const previous = messages.filter((m) => !o.excludeIds.includes(m.id));
  const history = buildHistory(previous, budget);
  const notes: string[] = [];
  if (history.omittedMessages > 0) {
    notes.push(`The ${history.omittedMessages} oldest messages of this chat are not shown: the conversation is longer than the context window.`);
  }
  if (history.omittedToolResults > 0) notes.push("Some older tool results were removed from the history to save space.");

  const user: ChatCompletionMessageParam = o.images.length
    ? { role: "user", content: [{ type: "text", text: o.content }, ...o.images] }
    : { role: "user", content: o.content };
  // The history must not end on a user turn right before this one (strict templates want alternation).
  const last = history.messages.at(-1);
  if (last?.role === "user") history.messages.push({ role: "assistant", content: "(no answer was saved for this message)" });
  return [{ role: "system", content: systemPrompt(promptProject, o.tools, notes) }, ...history.messages, user];
}
