/**
 * What a run's tokens cost: prompt tokens at the model's input price, completion tokens at its output
 * price, both per 1M tokens (MODEL_PRICES). A model without a price has no cost (null), which the chat
 * shows as tokens only, rather than a made-up zero.
 *
 * @example
 * costOf({ "gpt-4o": { input: 2.5, output: 10 } }, "gpt-4o", { promptTokens: 1_000, completionTokens: 100 }); // 0.0035
 */
export type ModelPrices = Record<string, { input: number; output: number }>;

export function costOf(prices: ModelPrices | undefined, model: string, usage: { promptTokens: number; completionTokens: number }): number | null {
  const price = prices?.[model];
  if (!price) return null;
  const dollars = (usage.promptTokens * price.input + usage.completionTokens * price.output) / 1_000_000;
  // Rounded to a millionth of a dollar: more digits are noise from float arithmetic.
  return Math.round(dollars * 1e6) / 1e6;
}
