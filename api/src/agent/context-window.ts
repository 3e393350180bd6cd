/**
 * Keeping a run's conversation inside the model's context window. Sizes come from a real tokenizer
 * (handed in through the `countTokens` port; a rough estimate when none is) scaled by what the endpoint
 * reports it counted, since every model tokenizes differently. When the conversation nears the window,
 * old tool results and old write_file contents are shortened first (path and size kept), then the older
 * steps are summarised by the model into one note that replaces them for the rest of the run.
 *
 * @example
 * const meter = new TokenMeter(countTokens);
 * shortenOldSteps(messages, budget, 3, meter);
 * if (meter.messages(messages) > budget) await summariseOlderSteps(messages, 3, summarise);
 */
import type { ChatMessage } from "./chat-message";

/** A tokenizer: the number of tokens in a text. */
export type CountTokens = (text: string) => number;

/** Used when no tokenizer is handed in (engine tests): about four characters per token. */
export const roughTokens: CountTokens = (text) => Math.ceil(text.length / 4);

/** What one image costs in context, roughly (providers count 85–1,500 tokens by size and detail). */
export const IMAGE_TOKENS = 1_000;
const PER_MESSAGE = 4;

export class TokenMeter {
  /** Reported ÷ counted, from the endpoint's usage: its tokenizer is not ours. Never below 1 (safe side). */
  private ratio = 1;
  private readonly cache = new WeakMap<ChatMessage, { key: number; tokens: number }>();

  constructor(private readonly count: CountTokens = roughTokens) {}

  text(text: string): number {
    return Math.ceil(this.count(text) * this.ratio);
  }

  /** A message's tokens; cached per message until its size changes (trimming edits messages in place). */
  message(m: ChatMessage): number {
    const calls = m.role === "assistant" ? m.toolCalls : undefined;
    const key = m.content.length + (calls?.reduce((n, c) => n + c.arguments.length + c.name.length, 0) ?? 0);
    const cached = this.cache.get(m);
    let raw: number;
    if (cached?.key === key) raw = cached.tokens;
    else {
      raw = this.count(m.content) + PER_MESSAGE;
      for (const c of calls ?? []) raw += this.count(c.arguments) + this.count(c.name) + PER_MESSAGE;
      if (m.role === "user") raw += (m.images?.length ?? 0) * IMAGE_TOKENS;
      this.cache.set(m, { key, tokens: raw });
    }
    return Math.ceil(raw * this.ratio);
  }

  /** What a message's images count in `message()`, scaled the same way. */
  imageTokens(m: ChatMessage): number {
    return m.role === "user" && m.images?.length ? Math.ceil(m.images.length * IMAGE_TOKENS * this.ratio) : 0;
  }

  messages(list: ChatMessage[]): number {
    let n = 0;
    for (const m of list) n += this.message(m);
    return n;
  }

  /**
   * Learns from the endpoint's own count of a prompt we estimated at `estimated` tokens. Never below our own
   * count: a lower report more often means the endpoint dropped part of the prompt (`looksCut`) than that
   * its tokenizer is thriftier, and trusting it would make every later prompt too long. A higher count is
   * taken at once (counting low sends a prompt over a small window), a lower one halfway.
   */
  calibrate(estimated: number, reported: number): void {
    if (estimated <= 0 || reported <= 0) return;
    const seen = (reported / estimated) * this.ratio;
    this.ratio = Math.min(4, Math.max(1, seen >= this.ratio ? seen : this.ratio * 0.5 + seen * 0.5));
  }

  /** After the endpoint said the prompt was too long: count more pessimistically from now on. */
  distrust(): void {
    this.ratio = Math.min(4, this.ratio * 1.25);
  }
}

/** Prompts we count below this are not checked for a silent cut: no server runs so small a window, and small counts are noisy. */
const CUT_CHECK_MIN_TOKENS = 1_024;

/**
 * Did the endpoint take only part of the prompt? Ollama cuts a prompt longer than the window it runs with
 * (its oldest messages go; the system messages, the tool schemas and the last message stay) and answers 200
 * as if nothing happened; only the reply's usage shows it, as far fewer prompt tokens than were sent.
 * `counted` is our count of the prompt and `alwaysKept` of the part such a cut keeps, both without images
 * (servers count those very differently). Tokenizers differ by far less than the 30% taken as the sign; a
 * report below even the kept part is no cut but a count of something else (a server that leaves cached
 * tokens out, a scripted reply).
 */
export function looksCut(counted: number, reportedPromptTokens: number, alwaysKept = 0): boolean {
  return counted >= CUT_CHECK_MIN_TOKENS && reportedPromptTokens >= alwaysKept * 0.7 && reportedPromptTokens > 0 && reportedPromptTokens < counted * 0.7;
}

/**
 * Phrases of the stubs that stand in for old content in a run's history (here) and in a chat's earlier
 * answers (`history.ts`): a write that holds one copied a stub instead of code (write_file refuses it).
 */
export const HISTORY_STUB_PHRASES = ["omitted to save space", "removed to fit the context window", "left out to save space"] as const;

const SHORT_TOOL_RESULT = "[Earlier tool output removed to fit the context window; run the tool again if you need it.]";
const KEEP_CHARS = 200;

/**
 * Stage one: shortens tool results and write_file contents older than the last `keepLast` messages,
 * oldest first, until the conversation fits `budget`. Returns how many were shortened.
 */
export function shortenOldSteps(messages: ChatMessage[], budget: number, keepLast: number, meter: TokenMeter): number {
  let total = meter.messages(messages);
  let shortened = 0;
  for (let i = 0; i < messages.length - keepLast && total > budget; i++) {
    const m = messages[i]!;
    const before = meter.message(m);
    if (m.role === "tool" && m.content.length > KEEP_CHARS) {
      m.content = SHORT_TOOL_RESULT;
    } else if (m.role === "assistant" && m.toolCalls?.some((c) => c.name === "write_file" && c.arguments.length > KEEP_CHARS)) {
      m.toolCalls = m.toolCalls.map((c) => (c.name === "write_file" ? { ...c, arguments: shortenWrite(c.arguments) } : c));
    } else continue;
    total += meter.message(m) - before;
    shortened++;
  }
  return shortened;
}

/** A write_file call's arguments with the content replaced by its size: the path stays valid JSON. */
export function shortenWrite(args: string): string {
  try {
    const parsed = JSON.parse(args) as { path?: unknown; content?: unknown };
    if (typeof parsed.content !== "string" || parsed.content.length <= KEEP_CHARS) return args;
    const bytes = new TextEncoder().encode(parsed.content).length;
    return JSON.stringify({ ...parsed, content: `[${bytes} bytes written; content omitted to save space, read_file shows it]` });
  } catch {
    return JSON.stringify({ content: `[${args.length} characters of arguments omitted to save space]` });
  }
}

/** Asks the model for a compact note about the given transcript (no tools). */
export type Summarise = (transcript: string) => Promise<string>;

export const SUMMARY_HEADING = "[Summary of the earlier steps of this run]";

/**
 * Stage two: the steps between the first user message and the last `keepLast` messages become one note,
 * put at the head of the first kept assistant message (so tool calls and their results stay paired and
 * roles keep alternating). An earlier summary is part of what is summarised, so notes do not pile up.
 * Returns false when there was nothing old enough to summarise.
 */
export async function summariseOlderSteps(messages: ChatMessage[], keepLast: number, summarise: Summarise, maxTranscriptChars: number): Promise<boolean> {
  const firstUser = messages.findIndex((m) => m.role === "user");
  let split = messages.length - keepLast;
  while (split > firstUser + 1 && messages[split]?.role !== "assistant") split--;
  if (split <= firstUser + 1 || messages[split]?.role !== "assistant") return false;
  const older = messages.slice(firstUser + 1, split);
  if (older.length === 0) return false;
  let transcript = older.map(describe).join("\n\n");
  if (transcript.length > maxTranscriptChars) {
    // The newest part matters most for carrying on.
    transcript = `…\n${transcript.slice(-maxTranscriptChars)}`;
  }
  const note = (await summarise(transcript)).trim();
  if (!note) return false;
  const head = messages[split] as Extract<ChatMessage, { role: "assistant" }>;
  messages.splice(firstUser + 1, older.length);
  head.content = `${SUMMARY_HEADING}\n${note}\n\n${head.content.replace(/^\[Summary of the earlier steps of this run\][\s\S]*?\n\n/, "")}`.trim();
  return true;
}

/** One message as plain text for the summariser (only it reads this, never the working model). */
function describe(m: ChatMessage): string {
  switch (m.role) {
    case "assistant": {
      const calls = (m.toolCalls ?? []).map((c) => `  used ${c.name} with ${c.arguments.length > 400 ? `${c.arguments.slice(0, 400)}…` : c.arguments}`);
      return [`Assistant: ${m.content}`, ...calls].join("\n");
    }
    case "tool":
      return `Result: ${m.content.length > 1_000 ? `${m.content.slice(0, 1_000)}…` : m.content}`;
    case "user":
      return `User: ${m.content}`;
    case "system":
      return `System: ${m.content.slice(0, 500)}`;
  }
}

export const SUMMARY_PROMPT =
  "You compress an AI coding agent's working history so it can continue with less context. Write a compact note " +
  "(at most 250 words) of what was done: files created or changed (paths), commands run and their outcome, errors " +
  "still open, and what remains to do. Plain sentences, no tool-call syntax, no code.";
