/**
 * The conversation sent to the model: the project's earlier messages, trimmed to a token budget rather
 * than failing on a long chat. Tool results are the bulkiest and least lasting part, so the oldest lose
 * theirs first; if that is not enough, the oldest messages go. Earlier tool calls travel as text inside the
 * assistant message (every OpenAI-compatible server accepts that; tool-call ids from past runs would not be).
 */
import type { Message } from "@shared/schemas/message";
import type { ChatMessage } from "./chat-message";

/** Rough token count: about 4 characters per token, plus a little per message. */
export const estimateTokens = (text: string) => Math.ceil(text.length / 4) + 4;

/** Characters a message takes on the wire, roughly: its text, its images as data URLs, its tool calls. */
function messageChars(m: ChatMessage): number {
  let chars = m.content.length;
  if (m.role === "user") for (const image of m.images ?? []) chars += image.base64.length + image.mime.length + 40;
  if (m.role === "assistant" && m.toolCalls?.length) chars += JSON.stringify(m.toolCalls).length;
  return chars;
}

/** A message's rough token count (see `estimateTokens`). */
export const estimateMessageTokens = (m: ChatMessage) => Math.ceil(messageChars(m) / 4) + 4;

type Item = {
  role: "user" | "assistant";
  text: string;
  tools: { name: string; summary: string; result: string | null }[];
};

const RESULT_CHARS = 2_000;

function render(item: Item): string {
  if (item.tools.length === 0) return item.text;
  const lines = item.tools.map((t) => {
    const head = `- ${t.name}(${t.summary})`;
    if (t.result === null) return `${head}: [result omitted to save space]`;
    return `${head}: ${t.result.length > RESULT_CHARS ? `${t.result.slice(0, RESULT_CHARS)}…` : t.result}`;
  });
  return `${item.text}\n\n[Tools used in this answer]\n${lines.join("\n")}`.trim();
}

function toItem(m: Message): Item {
  if (m.role === "user") {
    const images = m.attachments.length ? `\n[${m.attachments.length} image${m.attachments.length === 1 ? "" : "s"} attached]` : "";
    return { role: "user", text: `${m.content}${images}`, tools: [] };
  }
  return {
    role: "assistant",
    text: m.content || (m.toolCalls.length ? "" : "(no answer)"),
    tools: m.toolCalls.map((t) => ({ name: t.name, summary: t.summary, result: t.result ?? "" })),
  };
}

export type TrimmedHistory = { messages: ChatMessage[]; omittedMessages: number; omittedToolResults: number };

export function buildHistory(previous: Message[], budgetTokens: number): TrimmedHistory {
  const items = previous.map(toItem);
  const cost = (item: Item) => estimateTokens(render(item));
  let total = items.reduce((sum, item) => sum + cost(item), 0);
  let omittedToolResults = 0;

  // 1. Oldest tool results first.
  for (const item of items) {
    if (total <= budgetTokens) break;
    for (const tool of item.tools) {
      if (tool.result === null) continue;
      const before = cost(item);
      tool.result = null;
      omittedToolResults++;
      total += cost(item) - before;
      if (total <= budgetTokens) break;
    }
  }
  // 2. Then the oldest messages.
  let start = 0;
  while (total > budgetTokens && start < items.length) total -= cost(items[start++]!);
  // Strict chat templates want the history to open with the user and alternate roles.
  while (start < items.length && items[start]!.role !== "user") start++;

  const messages: (ChatMessage & { role: "user" | "assistant" })[] = [];
  for (const item of items.slice(start)) {
    const text = render(item);
    const last = messages.at(-1);
    if (last && last.role === item.role) last.content = `${last.content}\n\n${text}`;
    else messages.push({ role: item.role, content: text });
  }
  return { messages, omittedMessages: start, omittedToolResults };
}

/**
 * Within a run the conversation grows with tool results. When it passes the budget, the oldest tool
 * results (not the latest `keepLast` messages) are replaced by a short note, in place.
 */
export function trimRunMessages(messages: ChatMessage[], budgetTokens: number, keepLast: number): number {
  const size = estimateMessageTokens;
  let total = messages.reduce((sum, m) => sum + size(m), 0);
  let trimmed = 0;
  for (let i = 0; i < messages.length - keepLast && total > budgetTokens; i++) {
    const m = messages[i]!;
    if (m.role !== "tool" || m.content.length < 200) continue;
    const before = size(m);
    m.content = "[Earlier tool output removed to fit the context window; run the tool again if you need it.]";
    total += size(m) - before;
    trimmed++;
  }
  return trimmed;
}
