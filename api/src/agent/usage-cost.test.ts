import { describe, expect, test } from "bun:test";
import { costOf } from "./usage-cost";

describe("costOf", () => {
  const prices = { "gpt-4o": { input: 2.5, output: 10 }, local: { input: 0, output: 0 } };

  test("prompt at the input price, completion at the output price, per 1M tokens", () => {
    expect(costOf(prices, "gpt-4o", { promptTokens: 1_000, completionTokens: 100 })).toBe(0.0035);
    expect(costOf(prices, "gpt-4o", { promptTokens: 2_000_000, completionTokens: 500_000 })).toBe(10);
  });

  test("a free model costs 0; a model without a price (or no prices at all) has no cost", () => {
    expect(costOf(prices, "local", { promptTokens: 5_000, completionTokens: 5_000 })).toBe(0);
    expect(costOf(prices, "other", { promptTokens: 5_000, completionTokens: 5_000 })).toBeNull();
    expect(costOf(undefined, "gpt-4o", { promptTokens: 5_000, completionTokens: 5_000 })).toBeNull();
  });
});
