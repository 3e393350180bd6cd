/**
 * Per-user rate limits on the expensive actions (chat runs, image uploads, shell commands, sandbox starts,
 * project creations, downloads, publishes), counted in the
 * database so that every instance behind the load balancer shares one count. Fixed windows: simple, one
 * upsert per request, and a user who hits the limit is told exactly when the window ends.
 *
 * @example
 * const limiter = createRateLimiter(deps);
 * await limiter.hit("chat", uid); // throws AppError 429 once the window's allowance is used up
 */
import type { Sql } from "../db/client";
import { countHit, pruneCounters } from "../db/rate-limits";
import type { Config } from "../lib/config";
import { rateLimited } from "../lib/errors";
import type { Logger } from "../lib/logger";

export type RateLimitedAction = "chat" | "uploads" | "shell" | "sandbox" | "projects" | "downloads" | "publish";

const WHAT: Record<RateLimitedAction, string> = {
  chat: "chat messages",
  uploads: "image uploads",
  shell: "shell commands",
  sandbox: "sandbox starts (recreate, template, run workflow)",
  projects: "new projects",
  downloads: "project downloads",
  publish: "publishes",
};
const PRUNE_EVERY_MS = 60_000;

export type RateLimiter = {
  /** Counts one `action` by `uid`; throws 429 (with the seconds until the window ends) past the limit. */
  hit(action: RateLimitedAction, uid: string): Promise<void>;
};

export function createRateLimiter(deps: { sql: Sql; config: Pick<Config, "rateLimits">; logger: Logger }): RateLimiter {
  const { windowSeconds } = deps.config.rateLimits;
  let lastPrune = 0;

  /** Old windows go now and then, from whichever instance gets there first; never in the request's way. */
  const pruneNowAndThen = () => {
    if (Date.now() - lastPrune < PRUNE_EVERY_MS) return;
    lastPrune = Date.now();
    pruneCounters(deps.sql, windowSeconds).catch((error) => deps.logger.warn("rate-limit counters not pruned", { error: String(error) }));
  };

  return {
    async hit(action, uid) {
      const max = deps.config.rateLimits[action];
      if (max === 0) return;
      const { hits, secondsLeft } = await countHit(deps.sql, `${action}:${uid}`, windowSeconds);
      pruneNowAndThen();
      if (hits > max) throw rateLimited(WHAT[action], secondsLeft);
    },
  };
}
