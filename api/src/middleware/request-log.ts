/**
 * One JSON log line per request with a request id, which is also returned as `X-Request-Id` so a user's
 * report can be matched to the server log. A sane incoming id (from Caddy or a client) is kept. A share link's
 * token is cut from the path (lib/redact-path.ts).
 */
import { createMiddleware } from "hono/factory";
import type { Logger } from "../lib/logger";
import { redactPath } from "../lib/redact-path";

const SANE_ID = /^[A-Za-z0-9._:-]{8,128}$/;

export function requestLog(logger: Logger) {
  return createMiddleware<{ Variables: { requestId: string } }>(async (c, next) => {
    const incoming = c.req.header("x-request-id");
    const requestId = incoming && SANE_ID.test(incoming) ? incoming : crypto.randomUUID();
    c.set("requestId", requestId);
    const started = performance.now();
    await next();
    c.header("X-Request-Id", requestId);
    logger.info("request", {
      requestId,
      method: c.req.method,
      path: redactPath(c.req.path),
      status: c.res.status,
      ms: Math.round((performance.now() - started) * 10) / 10,
    });
  });
}
