/**
 * `<slug>.<SITES_DOMAIN>` of a server deployment: every request is passed to its server (woken first when it
 * sleeps, so the visitor only waits longer), with the body streamed both ways and WebSockets bridged. The
 * visitor's request reaches only that server: never the builder's API, and cookies set for a wider domain are
 * dropped. When the server cannot run (a crash loop, a start that failed) the answer is a plain 502 page.
 *
 * @example
 * const servers = createServerProxy({ runtime, logger });
 * const res = await servers.handle(req, liveSite, bunServer); // undefined when upgraded to a WebSocket
 */
import type { Server, WebSocketHandler } from "bun";
import type { Logger } from "../lib/logger";
import { forwardHttp } from "../lib/forward-http";
import { type BridgedSocketData, bridgeHandler, requestedProtocols, upgradeToUpstream } from "../lib/forward-socket";
import type { LiveSite } from "../services/publish/live-site";
import type { ServerRuntime } from "../services/server-deployments/runtime";

export type SiteSocketData = BridgedSocketData & { kind: "site" };

export type ServerProxy = {
  handle(req: Request, site: LiveSite, server?: Server<unknown>): Promise<Response | undefined>;
  handler: WebSocketHandler<SiteSocketData>;
};

const NOT_RUNNING_PAGE =
  '<!doctype html><html><head><meta charset="utf-8"><title>This app is not running</title></head>' +
  '<body style="font-family:system-ui;text-align:center;padding:4rem"><h1>502</h1><p>This app is not running right now. Its owner can see why in the deployment\'s logs.</p></body></html>';

const notRunning = () =>
  new Response(NOT_RUNNING_PAGE, { status: 502, headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store", "retry-after": "60" } });

export function createServerProxy(o: { runtime: Pick<ServerRuntime, "target">; logger: Logger }): ServerProxy {
  return {
    async handle(req, site, server) {
      let target: { hostname: string; port: number };
      try {
        target = await o.runtime.target({ deploymentId: site.deploymentId, projectId: site.projectId, ownerId: site.ownerId, files: site.files });
      } catch (error) {
        o.logger.info("published server not running", { slug: site.slug, error: String(error) });
        return notRunning();
      }
      const url = new URL(req.url);
      const host = req.headers.get("host") ?? "";
      const upstream = `${target.hostname}:${target.port}${url.pathname}${url.search}`;
      if (req.headers.get("upgrade")?.toLowerCase() === "websocket") {
        if (!server) return new Response("WebSocket upgrade failed", { status: 400 });
        const data: SiteSocketData = { kind: "site", url: `ws://${upstream}`, host, protocols: requestedProtocols(req), pending: [] };
        return upgradeToUpstream(req, server, data);
      }
      try {
        const { res, headers } = await forwardHttp(req, upstream, {
          host,
          editRequest: (h) => {
            h.set("x-forwarded-host", host);
            h.set("x-forwarded-proto", url.protocol.replace(":", ""));
          },
        });
        return new Response(res.body, { status: res.status, statusText: res.statusText, headers });
      } catch (error) {
        o.logger.info("published server did not answer", { slug: site.slug, error: String(error) });
        return notRunning();
      }
    },
    handler: bridgeHandler<SiteSocketData>({ errorReason: "site upstream error" }),
  };
}
