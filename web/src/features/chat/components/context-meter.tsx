/**
 * Under the composer: how full the model's context window is for the conversation as the next request
 * would send it (a small bar and "12.3k / 32.8k tokens"), and, on servers with a monthly token budget,
 * how much of it the user has spent.
 */
import type { ContextUsage, TokenBudget } from "@shared/schemas/model";
import { cn } from "../../../lib/cn";
import { compactTokens, contextPercent, smallWindowWarning } from "../usage-format";

export function ContextMeter({ context, budget }: { context: ContextUsage | null; budget: TokenBudget | null }) {
  const showBudget = budget !== null && budget.limitTokens > 0;
  if (!context?.model && !showBudget) return null;
  const percent = context ? contextPercent(context.usedTokens, context.contextTokens) : 0;
  const warning = context?.model ? smallWindowWarning(context.contextTokens) : null;
  return (
    <div className="mt-1.5 flex flex-wrap items-center gap-x-3 gap-y-1 px-2 text-[11px] text-muted-foreground tabular-nums">
      {context?.model && (
        <div
          data-testid="context-meter"
          data-percent={percent}
          data-used={context.usedTokens}
          title={`The conversation takes ${context.usedTokens.toLocaleString("en")} of the ${context.contextTokens.toLocaleString("en")} tokens ${context.model} can read at once. Older steps are shortened, then summarised, when it fills up.`}
          className="flex items-center gap-1.5"
        >
          <span>Context</span>
          <div
            role="meter"
            aria-label="Context window used"
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={percent}
            className="h-1.5 w-16 overflow-hidden rounded-full bg-muted"
          >
            <div
              className={cn("h-full rounded-full", percent >= 90 ? "bg-destructive" : percent >= 70 ? "bg-amber-500" : "bg-primary/70")}
              style={{ width: `${percent}%` }}
            />
          </div>
          <span>
            {percent}% · {compactTokens(context.usedTokens)} / {compactTokens(context.contextTokens)} tokens
          </span>
        </div>
      )}
      {warning && (
        <span data-testid="small-window-warning" role="note" className="basis-full text-amber-600 dark:text-amber-400">
          {warning}
        </span>
      )}
      {showBudget && (
        <span data-testid="token-budget" title={`Tokens you have used this month (resets ${new Date(budget.resetsAt).toLocaleDateString()})`}>
          This month: {compactTokens(budget.usedTokens)} / {compactTokens(budget.limitTokens)} tokens
        </span>
      )}
    </div>
  );
}
