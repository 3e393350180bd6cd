import { describe, expect, test } from "bun:test";
import { countTokens } from "./token-count";

describe("token count", () => {
  test("a real tokenizer: words, code and non-Latin text differ from characters / 4", () => {
    expect(countTokens("Hello, world!")).toBe(4);
    expect(countTokens("")).toBe(0);
    // Repeated single letters merge into long tokens; CJK takes about a token per character.
    expect(countTokens("a".repeat(400))).toBeLessThan(100);
    expect(countTokens("你好世界，这是一个测试。")).toBeGreaterThan(12 / 4);
  });

  test("very long text is counted by sampling, close to the exact count", () => {
    const line = "export function add(a: number, b: number) { return a + b; }\n";
    const text = line.repeat(10_000);
    const perLine = countTokens(line.repeat(100)) / 100;
    expect(Math.abs(countTokens(text) - perLine * 10_000)).toBeLessThan(perLine * 10_000 * 0.05);
  });
});
