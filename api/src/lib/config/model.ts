/**
 * The model endpoint (any OpenAI-compatible API), the models a project may choose, their prices and each
 * user's monthly token budget; and which models take images, guessed from their names.
 *
 * @example
 * modelConfig(e).model; // { configured: true, baseUrl, apiKey, model: "qwen2.5-coder:7b", models: [...] }
 */
import { z } from "zod";
import { ConfigError, countOrOff, optionalString } from "./values";

export const modelEnv = {
  OPENAI_API_KEY: optionalString,
  OPENAI_BASE_URL: optionalString.pipe(z.url({ message: "must be a full URL such as http://127.0.0.1:11434/v1" }).optional()),
  OPENAI_MODEL: optionalString,
  MODELS: optionalString.transform((v, ctx): string[] => {
    if (v === undefined) return [];
    const ids = v.split(",").map((id) => id.trim());
    if (ids.some((id) => id === "")) {
      ctx.addIssue({ code: "custom", message: `must be a comma-separated list of model ids with no empty entries, got "${v}"` });
      return z.NEVER;
    }
    const repeated = ids.filter((id, i) => ids.indexOf(id) !== i);
    if (repeated.length) {
      ctx.addIssue({ code: "custom", message: `lists "${repeated[0]}" more than once` });
      return z.NEVER;
    }
    return ids;
  }),
  MODEL_PRICES: optionalString.transform((v, ctx): Record<string, ModelPrice> => {
    if (v === undefined) return {};
    const prices: Record<string, ModelPrice> = {};
    for (const entry of v
      .split(",")
      .map((e) => e.trim())
      .filter(Boolean)) {
      const price = parsePrice(entry);
      if (!price) {
        ctx.addIssue({
          code: "custom",
          message: `entry "${entry}" must look like model=input/output, US dollars per 1M tokens (e.g. gpt-4o=2.5/10,qwen2.5-coder:7b=0/0)`,
        });
        return z.NEVER;
      }
      prices[price.model] = { input: price.input, output: price.output };
    }
    return prices;
  }),
  USER_MONTHLY_TOKENS: countOrOff(0),
};

type ModelEnv = z.infer<z.ZodObject<typeof modelEnv>>;

/** A model's price in US dollars per 1M tokens, prompt (input) and completion (output). */
export type ModelPrice = { input: number; output: number };

export type ModelConfig = {
  /**
   * `model` is the default (MODELS' first entry, else OPENAI_MODEL); `models` every id a project may choose
   * (MODELS, else just the default).
   */
  model: { configured: false } | { configured: true; baseUrl?: string; apiKey: string; model: string; models: string[] };
  /** MODEL_PRICES: per model id; a model without an entry has no cost shown. */
  modelPrices: Record<string, ModelPrice>;
  /** USER_MONTHLY_TOKENS: tokens one user may spend per calendar month (UTC); 0 = no budget. */
  userMonthlyTokens: number;
};

/** The model a project uses unless it chose another; also the one whose name guesses vision when unconfigured. */
export function defaultModelOf(e: ModelEnv): string {
  return e.MODELS[0] ?? e.OPENAI_MODEL ?? "gpt-4o-mini";
}

export function modelConfig(e: ModelEnv): ModelConfig {
  if (e.OPENAI_MODEL && !e.OPENAI_API_KEY && !e.OPENAI_BASE_URL) {
    throw new ConfigError("OPENAI_MODEL is set but neither OPENAI_API_KEY nor OPENAI_BASE_URL is: say which endpoint serves the model.");
  }
  if (e.MODELS.length && !e.OPENAI_API_KEY && !e.OPENAI_BASE_URL) {
    throw new ConfigError("MODELS is set but neither OPENAI_API_KEY nor OPENAI_BASE_URL is: say which endpoint serves the models.");
  }
  if (e.MODELS.length && e.OPENAI_MODEL && !e.MODELS.includes(e.OPENAI_MODEL)) {
    throw new ConfigError(
      `OPENAI_MODEL=${e.OPENAI_MODEL} is not one of MODELS (${e.MODELS.join(", ")}): with MODELS set, its first entry is the default; add the model to MODELS or unset OPENAI_MODEL.`,
    );
  }
  const defaultModel = defaultModelOf(e);
  return {
    model:
      e.OPENAI_API_KEY || e.OPENAI_BASE_URL
        ? {
            configured: true,
            baseUrl: e.OPENAI_BASE_URL,
            apiKey: e.OPENAI_API_KEY ?? "not-needed",
            model: defaultModel,
            models: e.MODELS.length ? e.MODELS : [defaultModel],
          }
        : { configured: false },
    modelPrices: e.MODEL_PRICES,
    userMonthlyTokens: e.USER_MONTHLY_TOKENS,
  };
}

/** `model=input/output`; the model id is everything before the last `=` (ids hold `:` and `/`, never `=`). */
function parsePrice(entry: string): ({ model: string } & ModelPrice) | null {
  const at = entry.lastIndexOf("=");
  if (at <= 0) return null;
  const model = entry.slice(0, at).trim();
  const parts = entry
    .slice(at + 1)
    .split("/")
    .map((p) => p.trim());
  if (!model || parts.length !== 2 || parts.some((p) => p === "")) return null;
  const [input, output] = parts.map(Number) as [number, number];
  if (!Number.isFinite(input) || !Number.isFinite(output) || input < 0 || output < 0) return null;
  return { model, input, output };
}

/**
 * Model families that take images, by name (OpenAI, Anthropic, Google, and the open vision models served
 * by Ollama / vLLM / LM Studio). Anything else is assumed text-only; MODEL_VISION overrides the guess.
 */
export function isKnownVisionModel(model: string): boolean {
  const name = model.toLowerCase().split("/").pop() ?? "";
  if (/^(o1-mini|o3-mini|gpt-3\.5|gpt-4-(0613|0314|32k))/.test(name) || /^gpt-4$/.test(name)) return false;
  return /^(gpt-4o|gpt-4\.1|gpt-4-turbo|gpt-4\.5|gpt-5|o1|o3|o4|chatgpt-4o)|claude-(3|sonnet|opus|haiku)|gemini|gemma-?3|llava|bakllava|vision|-vl\b|vl-|qwen[\d.]*-?vl|minicpm-v|moondream|pixtral|llama-?4|mistral-small-?3\.[12]|internvl|granite.*vision/.test(
    name,
  );
}
