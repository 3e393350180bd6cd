import { describe, expect, test } from "bun:test";
import { TokenMeter } from "./context-window";
import type { ModelTurn } from "./model";
import { RunUsage } from "./run-usage";

const turn = (o: Partial<ModelTurn> = {}): ModelTurn => ({ text: "", reasoning: "", toolCalls: [], finishReason: "stop", usage: null, ...o });

describe("run usage", () => {
  test("reported tokens add up turn by turn, and teach the meter the endpoint's count", () => {
    const meter = new TokenMeter((t) => t.length);
    const usage = new RunUsage(meter);
    usage.count(turn({ usage: { promptTokens: 200, completionTokens: 10, totalTokens: 210 } }), 100);
    usage.count(turn({ usage: { promptTokens: 300, completionTokens: 20, totalTokens: 320 } }), 150);
    expect(usage.usage).toEqual({ promptTokens: 500, completionTokens: 30, totalTokens: 530 });
    expect(usage.spent).toBe(530);
    expect(meter.text("abcd")).toBeGreaterThan(4);
  });

  test("a turn without a report is counted with the tokenizer, and the run's usage says it is estimated from then on", () => {
    const usage = new RunUsage(new TokenMeter((t) => t.length));
    usage.count(turn({ text: "hello", reasoning: "hm" }), 40);
    expect(usage.usage).toEqual({ promptTokens: 40, completionTokens: 7, totalTokens: 47, estimated: true });
    usage.count(turn({ usage: { promptTokens: 1, completionTokens: 1, totalTokens: 2 } }), 1);
    expect(usage.usage).toMatchObject({ totalTokens: 49, estimated: true });
  });

  test("a reply to a cut prompt is counted but does not calibrate the meter", () => {
    const meter = new TokenMeter((t) => t.length);
    new RunUsage(meter).count(turn({ usage: { promptTokens: 4_000, completionTokens: 1, totalTokens: 4_001 } }), 2_000, true);
    expect(meter.text("abcd")).toBe(4);
  });
});
