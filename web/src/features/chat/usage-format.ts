/**
 * How token counts, costs and the context meter read in the chat: short, so they fit under an answer and
 * beside the composer.
 *
 * @example
 * compactTokens(12_345); // "12.3k"
 * formatCost(0.0035);     // "$0.0035"
 */
import type { MessageUsage } from "@shared/schemas/message";

/** 950 → "950", 12,345 → "12.3k", 128,000 → "128k", 1,500,000 → "1.5M". */
export function compactTokens(n: number): string {
  if (n < 1_000) return String(Math.round(n));
  if (n < 1_000_000) return `${trim(n / 1_000)}k`;
  return `${trim(n / 1_000_000)}M`;
}

const trim = (v: number) => (v >= 100 ? String(Math.round(v)) : v.toFixed(1).replace(/\.0$/, ""));

/** US dollars: cents for a dollar or more, four decimals below (an answer often costs a fraction of a cent). */
export function formatCost(dollars: number): string {
  if (dollars === 0) return "$0";
  if (dollars >= 1) return `$${dollars.toFixed(2)}`;
  if (dollars < 0.0001) return "<$0.0001";
  return `$${dollars.toFixed(4)}`;
}

/** The line under an answer: "1,200 tokens (1,000 in · 200 out) · $0.0060"; "≈" when counted, not reported. */
export function usageLine(usage: MessageUsage): { tokens: string; detail: string; cost: string | null } {
  const n = (v: number) => v.toLocaleString("en");
  return {
    tokens: `${usage.estimated ? "≈" : ""}${n(usage.totalTokens)} tokens`,
    detail: `${n(usage.promptTokens)} in · ${n(usage.completionTokens)} out`,
    cost: typeof usage.cost === "number" ? formatCost(usage.cost) : null,
  };
}

/** How full the window is, 0–100 (whole percent; a sliver shows as 1). */
export function contextPercent(used: number, window: number): number {
  if (window <= 0 || used <= 0) return 0;
  return Math.min(100, Math.max(1, Math.round((used / window) * 100)));
}

/** Below this window a build hardly fits: the chat says so, naming the setting to raise. */
export const SMALL_WINDOW_TOKENS = 16_384;

/** The warning shown under the composer for a model with a small context window, or null. */
export function smallWindowWarning(contextTokens: number): string | null {
  if (contextTokens <= 0 || contextTokens >= SMALL_WINDOW_TOKENS) return null;
  return (
    `This model reads only ${compactTokens(contextTokens)} tokens at once, too few for most builds: raise its context window to 16k or more ` +
    "(MODEL_CONTEXT_TOKENS on this server; for Ollama also OLLAMA_CONTEXT_LENGTH on its server)."
  );
}
