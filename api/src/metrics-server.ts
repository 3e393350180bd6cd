/**
 * GET /metrics on its own port (METRICS_PORT, on HOST), for Prometheus to scrape each instance directly: the
 * public port never serves it, so no proxy rule has to hide it. Anything else on this port is a 404.
 *
 * @example
 * const server = serveMetrics({ port: 9091, hostname: "127.0.0.1" });
 * await fetch(`http://127.0.0.1:${server.port}/metrics`); // Prometheus text format
 */
import { registry } from "./lib/metrics";

export function serveMetrics(options: { port: number; hostname: string }) {
  return Bun.serve({
    port: options.port,
    hostname: options.hostname,
    async fetch(req) {
      const { pathname } = new URL(req.url);
      if (pathname !== "/metrics" || (req.method !== "GET" && req.method !== "HEAD")) {
        return new Response("Not found: this port serves only GET /metrics (Prometheus).\n", { status: 404 });
      }
      return new Response(await registry.metrics(), { headers: { "content-type": registry.contentType, "cache-control": "no-store" } });
    },
  });
}
