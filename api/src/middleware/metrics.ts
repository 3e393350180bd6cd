/**
 * Records every request handled by the Hono app in the metrics: method, the route pattern that answered
 * (`/api/files/:projectId`; `*` for the SPA and unknown paths) and status, and the time until the response
 * started. Put it first, so requests that fail in other middleware are counted too.
 */
import { createMiddleware } from "hono/factory";
import { routePath } from "hono/route";
import type { Metrics } from "../lib/metrics";

export function recordRequests(metrics: Metrics) {
  return createMiddleware(async (c, next) => {
    const started = performance.now();
    await next();
    // After next(), the route index points at the handler that answered (or the middleware that refused).
    metrics.observeRequest(c.req.method, routePath(c) || "*", c.res.status, (performance.now() - started) / 1000);
  });
}
