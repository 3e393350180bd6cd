/**
 * The agent's tokenizer (its `CountTokens` port): OpenAI's o200k_base encoding from `gpt-tokenizer`, pure
 * JavaScript. Other model families tokenize differently; the agent scales these counts by the usage each
 * endpoint reports, so one good tokenizer plus calibration beats a guess per model.
 *
 * @example
 * countTokens("Hello, world!"); // 4
 */
import { countTokens as o200k } from "gpt-tokenizer/encoding/o200k_base";

/** Past this size a text is counted by sampling: exact counts of megabyte tool outputs cost more than they tell. */
const EXACT_CHARS = 200_000;

export function countTokens(text: string): number {
  if (text.length <= EXACT_CHARS) return o200k(text);
  const sample = text.slice(0, EXACT_CHARS / 2) + text.slice(-EXACT_CHARS / 2);
  return Math.ceil((o200k(sample) / sample.length) * text.length);
}
