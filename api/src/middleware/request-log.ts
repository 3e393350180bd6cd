/**
 * One JSON log line per request with a request id, which is also returned as `X-Request-Id` so a user's
 * report can be matched to the server log. A sane incoming id (from Caddy or a client) is kept. The id also
 * reaches every other line logged while the request is handled (services, agent runs it starts). A share
 * link's token is cut from the path (lib/redact-path.ts).
 */
import { createMiddleware } from "hono/factory";
import { logContext, type Logger } from "../lib/logger";
import { redactPath } from "../lib/redact-path";

const SANE_ID = /^[A-Za-z0-9._:-]{8,128}$/;

export function requestLog(logger: Logger) {
  return createMiddleware<{ Variables: { requestId: string } }>(async (c, next) => {
    const incoming = c.req.header("x-request-id");
    const requestId = incoming && SANE_ID.test(incoming) ? incoming : crypto.randomUUID();
    c.set("requestId", requestId);
    const started = performance.now();
    // Every log line written for this request, in any layer, carries its id (lib/logger.ts).
    await logContext.run({ requestId }, next);
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
