/**
 * Records every request handled by the Hono app in the metrics: method, the route pattern it was for
 * (`/api/files/:projectId`, also when auth refused it first; `*` for the SPA and unknown paths), status,
 * and the time until the response started. Put it first, so requests refused by other middleware count.
 */
import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { matchedRoutes } from "hono/route";
import { observeRequest } from "../lib/metrics";

export function recordRequests() {
  return createMiddleware(async (c, next) => {
    const started = performance.now();
    await next();
    observeRequest(c.req.method, routeOf(c), c.res.status, (performance.now() - started) / 1000);
  });
}

/** The first matched handler route (middleware and catch-alls are registered for ALL methods). */
function routeOf(c: Context): string {
  const route = matchedRoutes(c).find((r) => r.method !== "ALL");
  return route && route.path !== "/*" ? route.path : "*";
}
