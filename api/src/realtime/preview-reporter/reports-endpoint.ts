/**
 * The preview host's own two paths, answered by the proxy and never by the app: the reporter script, with
 * the element picker (GET /__appbuilder/report.js, served-script.ts) and the reports it sends (POST /__appbuilder/problems). Reports must come
 * from a page of that same preview host (its Origin), are size-capped, and rate-limited per sandbox, so a
 * page throwing in a loop (or anyone holding the preview URL) cannot flood the database.
 */
import type { Logger } from "../../lib/logger";
import { browserReportBatchSchema, PING_EVERY_MS } from "../../services/problems";
import type { BrowserReport } from "../../services/problems/browser-report";
import { REPORTER_PATH, REPORTS_PATH } from "./inject";
import { type AppOrigins, appOriginsOf, servedScript } from "./served-script";

/** Where the proxy hands what it hears about a sandbox's app (the problems service, in the server). */
export type PreviewProblemSink = {
  report(sandboxId: string, reports: BrowserReport[]): Promise<unknown>;
  viteError(sandboxId: string, err: unknown): Promise<unknown>;
};

export const MAX_REPORT_BYTES = 64 * 1024;
/** Requests per sandbox: a burst of this many, then REFILL_PER_SECOND. */
export const REPORT_BURST = 60;
export const REFILL_PER_SECOND = 2;

const plain = (status: number, text: string) =>
  new Response(text, { status, headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" } });

async function readCapped(req: Request, max: number): Promise<string | null> {
  if (Number(req.headers.get("content-length") ?? 0) > max) return null;
  if (!req.body) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of req.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > max) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}

export function createReportsEndpoint(deps: {
  sink: PreviewProblemSink | null;
  logger: Logger;
  burst?: number;
  refillPerSecond?: number;
  /** The app's origins, which the picker in the script answers (default: a local server's). */
  appOrigins?: AppOrigins;
}) {
  const script = servedScript({ pingEveryMs: PING_EVERY_MS, appOrigins: deps.appOrigins ?? appOriginsOf(undefined) });
  const burst = deps.burst ?? REPORT_BURST;
  const refill = deps.refillPerSecond ?? REFILL_PER_SECOND;
  const buckets = new Map<string, { tokens: number; at: number }>();

  const take = (sandboxId: string): boolean => {
    const now = Date.now();
    const b = buckets.get(sandboxId) ?? { tokens: burst, at: now };
    b.tokens = Math.min(burst, b.tokens + ((now - b.at) / 1000) * refill);
    b.at = now;
    buckets.delete(sandboxId);
    // Re-inserted so the Map's order is least recently used first, and the oldest go when it grows.
    buckets.set(sandboxId, b);
    if (buckets.size > 10_000) buckets.delete(buckets.keys().next().value!);
    if (b.tokens < 1) return false;
    b.tokens -= 1;
    return true;
  };

  return {
    /** The answer for a reserved path, or null when the path is the app's. */
    async handle(req: Request, sandboxId: string, host: string): Promise<Response | null> {
      const path = new URL(req.url).pathname;
      if (path === REPORTER_PATH) {
        if (req.method !== "GET" && req.method !== "HEAD") return plain(405, "Method not allowed");
        return new Response(req.method === "HEAD" ? null : script, {
          headers: { "content-type": "text/javascript; charset=utf-8", "cache-control": "no-cache", "x-content-type-options": "nosniff" },
        });
      }
      if (path !== REPORTS_PATH) return null;
      if (req.method !== "POST") return plain(405, "Method not allowed");
      const origin = req.headers.get("origin");
      let sameHost = false;
      try {
        sameHost = origin !== null && new URL(origin).host.toLowerCase() === host.toLowerCase();
      } catch {
        sameHost = false;
      }
      if (!sameHost) return plain(403, "Reports come from the preview's own pages");
      if (!take(sandboxId)) return plain(429, "Too many reports");
      const body = await readCapped(req, MAX_REPORT_BYTES);
      if (body === null) return plain(413, "Report too large");
      let parsed;
      try {
        parsed = browserReportBatchSchema.safeParse(JSON.parse(body));
      } catch {
        parsed = null;
      }
      if (!parsed?.success) return plain(400, "Unreadable report");
      if (deps.sink) {
        await deps.sink
          .report(sandboxId, parsed.data.reports)
          .catch((error) => deps.logger.warn("preview problems not recorded", { sandboxId, error: String(error) }));
      }
      return new Response(null, { status: 204, headers: { "cache-control": "no-store" } });
    },
  };
}
