/**
 * The per-user monthly token budget (USER_MONTHLY_TOKENS) for shared servers: every finished run adds its
 * tokens to its owner's calendar month (UTC) in the database, so all instances share one count; a user whose
 * month is spent cannot start another run until the month turns. A run already going is never cut short.
 *
 * @example
 * const budget = createTokenBudget(deps);
 * await budget.assertWithinBudget(uid); // 429 "You have used your 200,000 tokens for November. …"
 * await budget.record(uid, 1_234);
 */
import type { TokenBudget } from "@shared/schemas/model";
import type { Sql } from "../db/client";
import { addMonthlyTokens, monthlyTokens } from "../db/token-usage";
import type { Config } from "../lib/config";
import { AppError } from "../lib/errors";

const monthName = (d: Date) => d.toLocaleString("en", { month: "long", timeZone: "UTC" });

export function createTokenBudget(deps: { sql: Sql; config: Pick<Config, "userMonthlyTokens"> }) {
  const limit = deps.config.userMonthlyTokens;

  async function status(uid: string): Promise<TokenBudget> {
    const { tokens, month } = await monthlyTokens(deps.sql, uid);
    const start = new Date(`${month}T00:00:00Z`);
    const next = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1));
    return { month: month.slice(0, 7), usedTokens: tokens, limitTokens: limit, resetsAt: next.toISOString() };
  }

  return {
    status,
    async assertWithinBudget(uid: string): Promise<void> {
      if (limit === 0) return;
      const now = await status(uid);
      if (now.usedTokens < limit) return;
      const month = monthName(new Date(`${now.month}-01T00:00:00Z`));
      const reset = new Date(now.resetsAt);
      const seconds = Math.max(1, Math.ceil((reset.getTime() - Date.now()) / 1000));
      throw new AppError(
        429,
        "budget_exhausted",
        `You have used your ${limit.toLocaleString("en")} tokens for ${month}. The budget resets on ${reset.getUTCDate()} ${monthName(reset)}.`,
        { headers: { "Retry-After": String(seconds) } },
      );
    },
    async record(uid: string, tokens: number): Promise<void> {
      if (tokens > 0) await addMonthlyTokens(deps.sql, uid, Math.round(tokens));
    },
  };
}

export type TokenBudgetService = ReturnType<typeof createTokenBudget>;
