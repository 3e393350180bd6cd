import { describe, expect, test } from "bun:test";
import { compactTokens, contextPercent, formatCost, smallWindowWarning, usageLine } from "./usage-format";

describe("usage formatting", () => {
  test("compact token counts", () => {
    expect(compactTokens(950)).toBe("950");
    expect(compactTokens(12_345)).toBe("12.3k");
    expect(compactTokens(32_768)).toBe("32.8k");
    expect(compactTokens(128_000)).toBe("128k");
    expect(compactTokens(1_500_000)).toBe("1.5M");
  });

  test("costs: four decimals under a dollar, cents above, never a misleading zero", () => {
    expect(formatCost(0)).toBe("$0");
    expect(formatCost(0.0035)).toBe("$0.0035");
    expect(formatCost(0.00001)).toBe("<$0.0001");
    expect(formatCost(12.5)).toBe("$12.50");
  });

  test("the line under an answer: total, in/out, cost when priced; ≈ when estimated", () => {
    expect(usageLine({ promptTokens: 1_000, completionTokens: 200, totalTokens: 1_200, cost: 0.006 })).toEqual({
      tokens: "1,200 tokens",
      detail: "1,000 in · 200 out",
      cost: "$0.0060",
    });
    expect(usageLine({ promptTokens: 10, completionTokens: 5, totalTokens: 15, estimated: true, cost: null }).tokens).toBe("≈15 tokens");
    expect(usageLine({ promptTokens: 10, completionTokens: 5, totalTokens: 15 }).cost).toBeNull();
  });

  test("context percent", () => {
    expect(contextPercent(0, 32_768)).toBe(0);
    expect(contextPercent(10, 32_768)).toBe(1);
    expect(contextPercent(16_384, 32_768)).toBe(50);
    expect(contextPercent(40_000, 32_768)).toBe(100);
    expect(contextPercent(10, 0)).toBe(0);
  });

  test("a window below 16k gets a warning naming the setting to raise; 16k and more, or an unknown window, none", () => {
    expect(smallWindowWarning(8_192)).toContain("8.2k tokens");
    expect(smallWindowWarning(8_192)).toContain("MODEL_CONTEXT_TOKENS");
    expect(smallWindowWarning(4_096)).toContain("OLLAMA_CONTEXT_LENGTH");
    expect(smallWindowWarning(16_384)).toBeNull();
    expect(smallWindowWarning(0)).toBeNull();
  });
});
