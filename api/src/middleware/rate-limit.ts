/**
 * Rate limits as middleware: counts each POST (GET for downloads) of a signed-in user against
 * services/rate-limits.ts, so it must run after auth (the count is per user).
 *
 * @example
 * const limits = createRateLimits(deps);
 * api.use("/messages/stream", limits.chat);
 */
import { createMiddleware } from "hono/factory";
import type { AuthEnv } from "../auth/middleware";
import { createRateLimiter, type RateLimitedAction } from "../services/rate-limits";

export function createRateLimits(deps: Parameters<typeof createRateLimiter>[0]) {
  const limiter = createRateLimiter(deps);
  const limit = (action: RateLimitedAction, method = "POST") =>
    createMiddleware<AuthEnv>(async (c, next) => {
      if (c.req.method === method) await limiter.hit(action, c.var.caller.uid);
      await next();
    });
  return {
    chat: limit("chat"),
    uploads: limit("uploads"),
    shell: limit("shell"),
    sandbox: limit("sandbox"),
    projects: limit("projects"),
    downloads: limit("downloads", "GET"),
    publish: limit("publish"),
  };
}

export type RateLimits = ReturnType<typeof createRateLimits>;
