/**
 * Per-user rate limits on the expensive actions (chat runs, image uploads, shell commands), counted in the
 * database so that every instance behind the load balancer shares one count. Fixed windows: simple, one
 * upsert per request, and a user who hits the limit is told exactly when the window ends.
 *
 * @example
 * const limits = createRateLimits(deps);
 * api.use("/messages/stream", limits.chat); // after auth: the count is per signed-in user
 */
import { createMiddleware } from "hono/factory";
import type { AuthEnv } from "../auth/middleware";
import type { Sql } from "../db/client";
import { countHit, pruneCounters } from "../db/rate-limits";
import type { Config } from "../lib/config";
import { rateLimited } from "../lib/errors";
import type { Logger } from "../lib/logger";

export type RateLimitedAction = "chat" | "uploads" | "shell";

const WHAT: Record<RateLimitedAction, string> = { chat: "chat messages", uploads: "image uploads", shell: "shell commands" };
const PRUNE_EVERY_MS = 60_000;

export function createRateLimits(deps: { sql: Sql; config: Pick<Config, "rateLimits">; logger: Logger }) {
  const { windowSeconds } = deps.config.rateLimits;
  let lastPrune = 0;

  /** Old windows go now and then, from whichever instance gets there first; never in the request's way. */
  const pruneNowAndThen = () => {
    if (Date.now() - lastPrune < PRUNE_EVERY_MS) return;
    lastPrune = Date.now();
    pruneCounters(deps.sql, windowSeconds).catch((error) => deps.logger.warn("rate-limit counters not pruned", { error: String(error) }));
  };

  const limit = (action: RateLimitedAction) =>
    createMiddleware<AuthEnv>(async (c, next) => {
      const max = deps.config.rateLimits[action];
      if (max === 0 || c.req.method !== "POST") return next();
      const { hits, secondsLeft } = await countHit(deps.sql, `${action}:${c.var.caller.uid}`, windowSeconds);
      pruneNowAndThen();
      if (hits > max) throw rateLimited(WHAT[action], secondsLeft);
      await next();
    });

  return { chat: limit("chat"), uploads: limit("uploads"), shell: limit("shell") };
}

export type RateLimits = ReturnType<typeof createRateLimits>;
