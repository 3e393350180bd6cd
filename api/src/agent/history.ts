/**
 * The conversation sent to the model: the project's earlier messages, trimmed to a token budget rather
 * than failing on a long chat. Tool results are the bulkiest and least lasting part, so the oldest lose
 * theirs first; if that is not enough, the oldest messages go. What earlier answers did with tools is told
 * in plain prose inside the assistant message (tool-call ids from past runs would not be accepted), never in
 * a call-like syntax: a model shown `name(args)` or JSON calls in its history starts writing its own calls
 * as text.
 */
import type { Message } from "@shared/schemas/message";
import type { ChatMessage } from "./chat-message";
import { roughTokens, type CountTokens } from "./context-window";

type Item = {
  role: "user" | "assistant";
  text: string;
  tools: { name: string; summary: string; result: string | null }[];
};

const RESULT_CHARS = 2_000;

function render(item: Item): string {
  if (item.tools.length === 0) return item.text;
  const lines = item.tools.map((t) => {
    const head = `- Used ${t.name.replaceAll("_", " ")}${t.summary ? ` on ${t.summary}` : ""}`;
    if (t.result === null) return `${head} (result left out to save space).`;
    return `${head}. Result: ${t.result.length > RESULT_CHARS ? `${t.result.slice(0, RESULT_CHARS)}…` : t.result}`;
  });
  return `${item.text}\n\n(What I did with tools in this answer:)\n${lines.join("\n")}`.trim();
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

/** `omittedForRoom`: how many of the omitted messages went for lack of room (the rest only for role order). */
export type TrimmedHistory = { messages: ChatMessage[]; omittedMessages: number; omittedForRoom: number; omittedToolResults: number };

export function buildHistory(previous: Message[], budgetTokens: number, countTokens: CountTokens = roughTokens): TrimmedHistory {
  const items = previous.map(toItem);
  const cost = (item: Item) => countTokens(render(item)) + 4;
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
  const omittedForRoom = start;
  // Strict chat templates want the history to open with the user and alternate roles.
  while (start < items.length && items[start]!.role !== "user") start++;

  const messages: (ChatMessage & { role: "user" | "assistant" })[] = [];
  for (const item of items.slice(start)) {
    const text = render(item);
    const last = messages.at(-1);
    if (last && last.role === item.role) last.content = `${last.content}\n\n${text}`;
    else messages.push({ role: item.role, content: text });
  }
  return { messages, omittedMessages: start, omittedForRoom, omittedToolResults };
}

/** Older messages as plain text for the model that summarises them (it alone reads this). */
export function transcriptOf(messages: Message[]): string {
  return messages
    .map(toItem)
    .map((item) => `${item.role === "user" ? "User" : "Assistant"}: ${render(item)}`)
    .join("\n\n");
}
