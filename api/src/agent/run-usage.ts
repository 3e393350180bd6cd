/**
 * A run's tokens, added up turn by turn: as the endpoint reported them, or counted with the tokenizer for
 * a turn it reported none for (the run's usage then says it is estimated). Reported prompts also teach the
 * meter the endpoint's tokenizer.
 *
 * @example
 * const usage = new RunUsage(budget.meter);
 * usage.count(turn, estimate);
 * if (usage.spent >= limits.maxRunTokens) end();
 */
import type { TokenUsage } from "@shared/events/stream";
import type { TokenMeter } from "./context-window";
import type { ModelTurn } from "./model";

export class RunUsage {
  usage: TokenUsage | null = null;
  /** Every token the run's turns took, summaries included. */
  spent = 0;

  constructor(private readonly meter: TokenMeter) {}

  /**
   * Adds a turn's tokens; `estimate` is what we counted for its prompt. A reply to a prompt the endpoint
   * cut (`cut`) teaches the meter nothing about its tokenizer.
   */
  count(turn: ModelTurn, estimate: number, cut = false): void {
    const reported = turn.usage;
    const promptTokens = reported?.promptTokens ?? estimate;
    const completionTokens =
      reported?.completionTokens ?? this.meter.text(turn.reasoning + turn.text + (turn.toolCalls.length ? JSON.stringify(turn.toolCalls) : ""));
    const totalTokens = reported?.totalTokens ?? promptTokens + completionTokens;
    const before = this.usage;
    this.usage = {
      promptTokens: (before?.promptTokens ?? 0) + promptTokens,
      completionTokens: (before?.completionTokens ?? 0) + completionTokens,
      totalTokens: (before?.totalTokens ?? 0) + totalTokens,
      ...(before?.estimated || !reported ? { estimated: true } : {}),
    };
    this.spent += totalTokens;
    if (reported && estimate > 0 && !cut) this.meter.calibrate(estimate, reported.promptTokens);
  }
}
