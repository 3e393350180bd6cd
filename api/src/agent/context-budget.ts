/**
 * A run's context budget: the tokens its conversation may take in the next request (the window less the
 * answer's room and the tool schemas, or less what the endpoint has shown it really takes), and how the
 * conversation is brought under it (`context-window.ts` does the shortening and summarising).
 *
 * @example
 * const budget = new ContextBudget({ contextTokens: 32_768, maxOutputTokens: 4_096, toolsText, countTokens });
 * await budget.fit(messages, budget.room(), 3, summarise);
 */
import type { ChatMessage } from "./chat-message";
import { clipLines } from "./clip-lines";
import { looksCut, shortenOldSteps, summariseOlderSteps, TokenMeter, type CountTokens, type Summarise } from "./context-window";
import type { ModelTurn } from "./model";

/** Room kept beside the tool schemas for the request's own framing. */
const FRAMING_TOKENS = 64;
/** Never less than this is offered to the conversation, however small the window. */
const MIN_ROOM = 1_000;
/** When old steps must be shortened, they are shortened until the conversation takes this share of the room. */
const TRIM_TO = 0.6;
/** Room kept beside a clipped result for its framing and hint. */
const PER_RESULT_MARGIN = 32;
/** The most a single result is offered, whatever the room. */
const MAX_RESULT_CHARS = 16_000;

export class ContextBudget {
  readonly meter: TokenMeter;
  /** The model's window: lowered when the endpoint states a smaller one. */
  contextTokens: number;
  /** The most prompt tokens the endpoint has shown it takes: set when it silently cut a prompt. */
  promptCap = Infinity;
  private readonly maxOutputTokens: number;
  private readonly toolsText: string;

  constructor(o: { contextTokens: number; maxOutputTokens: number; toolsText: string; countTokens?: CountTokens }) {
    this.meter = new TokenMeter(o.countTokens);
    this.contextTokens = o.contextTokens;
    this.maxOutputTokens = o.maxOutputTokens;
    this.toolsText = o.toolsText;
  }

  /** What the tool schemas count (at the meter's current scale). */
  toolTokens(): number {
    return this.meter.text(this.toolsText);
  }

  /** Tokens the conversation may take. */
  room(): number {
    return Math.max(MIN_ROOM, Math.min(this.contextTokens - this.maxOutputTokens, this.promptCap) - this.toolTokens() - FRAMING_TOKENS);
  }

  /**
   * Shortens old steps, then summarises them, until `messages` fit `room` (or nothing is left to do). True
   * when older steps were summarised (the run says so).
   */
  async fit(messages: ChatMessage[], room: number, keepLast: number, summarise: Summarise): Promise<boolean> {
    const meter = this.meter;
    if (meter.messages(messages) <= room) return false;
    // Trimmed well below the room, in one batch: the next few requests then only add to the conversation,
    // so its prefix stays the same and a server's prompt cache keeps working.
    shortenOldSteps(messages, Math.floor(room * TRIM_TO), keepLast, meter);
    if (meter.messages(messages) <= room) return false;
    const summarised = await summariseOlderSteps(messages, keepLast, summarise, Math.max(2_000, room * 2));
    // Still too large (one huge recent step): shorten everything but the newest message.
    if (meter.messages(messages) > room) shortenOldSteps(messages, room, 1, meter);
    return summarised;
  }

  /**
   * Clips the newest tool results (at the end of `messages`), newest first, by lines to the room left, when
   * the conversation is still over `room` after fitting: older steps can give no more. True when it did.
   */
  clipNewest(messages: ChatMessage[], room: number): boolean {
    const meter = this.meter;
    let over = meter.messages(messages) - room;
    let clipped = false;
    for (let i = messages.length - 1; i >= 0 && over > 0; i--) {
      const m = messages[i]!;
      if (m.role !== "tool") break;
      const before = meter.message(m);
      const allowed = Math.max(0, before - over - PER_RESULT_MARGIN);
      m.content = clipLines(m.content, (text) => meter.text(text) <= allowed, Math.max(200, allowed * 2));
      over -= before - meter.message(m);
      clipped = true;
    }
    return clipped;
  }

  /** Characters a new tool result may take now, by a cautious 2.5 characters a token. */
  resultChars(messages: ChatMessage[]): number {
    const left = this.room() - this.meter.messages(messages) - PER_RESULT_MARGIN;
    return Math.max(1_000, Math.min(MAX_RESULT_CHARS, Math.floor(left * 2.5)));
  }

  /** After a context-length error: the endpoint counts more than we do, or its window is smaller than configured. */
  tooLong(errorMessage: string): void {
    const stated = /maximum context length is (\d+)/i.exec(errorMessage);
    if (stated) this.contextTokens = Math.min(this.contextTokens, Number(stated[1]));
    this.meter.distrust();
  }

  /**
   * The prompt tokens the endpoint took when it reports far fewer than were sent (a silent cut), else null.
   * `estimate` is our count of the request `list` and `tools` what the tool schemas count in it.
   */
  tokensTaken(turn: ModelTurn, estimate: number, list: ChatMessage[], tools: number): number | null {
    const reported = turn.usage?.promptTokens;
    if (reported === undefined) return null;
    const meter = this.meter;
    const last = list.at(-1);
    const kept =
      meter.messages(list.filter((m) => m.role === "system")) + (last && last.role !== "system" ? meter.message(last) - meter.imageTokens(last) : 0) + tools;
    const counted = estimate - list.reduce((n, m) => n + meter.imageTokens(m), 0);
    return looksCut(counted, reported, kept) ? reported : null;
  }

  /** The window is taken to be what a cutting endpoint took, less a margin for tokenizers that differ from ours. */
  capAt(taken: number): void {
    this.promptCap = Math.min(this.promptCap, Math.floor(taken * 0.85));
  }
}
