/**
 * The Bun server in front of the Hono app: a request that says it comes from another instance without
 * INSTANCE_SECRET is refused first (401, lib/instance-auth.ts); published site hosts go to the site server (before
 * anything else, so no app route is reachable on a site's origin), preview hosts to the preview proxy, `/api/ws` to
 * the file-event hub, `/api/sandbox/{id}/pty` to the interactive terminal, everything else to the app. One
 * WebSocket handler serves every kind of socket. Preview and site requests are counted for /metrics.
 */
import type { Server, WebSocketHandler } from "bun";
import type { InstanceAuth } from "./lib/instance-auth";
import type { OwnerSocketData, OwnerSockets } from "./realtime/owner-socket";
import type { PreviewProxy, PreviewSocketData } from "./realtime/preview-proxy";
import { countProxyRequest } from "./realtime/proxy-metrics";
import { PTY_PATH, type PtySocket, type PtySocketData } from "./realtime/pty-socket";
import type { HubSocketData, WsHub } from "./realtime/ws-hub";
import { hidesDotSegments, rawSegmentRoutes } from "./sites/site-request";
import type { ServerProxy, SiteSocketData } from "./sites/server-proxy";
import type { SiteServer } from "./sites/site-server";

type SocketData = HubSocketData | PreviewSocketData | PtySocketData | SiteSocketData | OwnerSocketData;

export function serveHttp(options: {
  port: number;
  hostname: string;
  fetch: (req: Request) => Response | Promise<Response>;
  hub: WsHub;
  preview: PreviewProxy;
  /** The interactive terminal's socket; without it that path answers like any other (404). */
  pty?: PtySocket;
  sites?: SiteServer;
  /** Published servers' WebSockets (the site server hands their upgrades here). */
  servers?: ServerProxy;
  /**
   * Several instances: every request that says it comes from another instance must carry INSTANCE_SECRET
   * (else 401, logged), and sockets bridged to a sandbox's owning instance.
   */
  instances?: { auth: InstanceAuth; sockets: OwnerSockets };
}): Server<SocketData> {
  const { hub, preview, pty } = options;
  const handlers = {
    hub: hub.handler,
    preview: preview.handler,
    pty: pty?.handler ?? {},
    site: options.servers?.handler ?? {},
    owner: options.instances?.sockets.handler ?? {},
  } as unknown as Record<SocketData["kind"], WebSocketHandler<SocketData>>;
  const rest = async (req: Request, server: Server<SocketData>): Promise<Response> => {
    const started = performance.now();
    const previewResponse = preview.handle(req, server as Server<unknown>);
    if (previewResponse) return countProxyRequest("preview", previewResponse, started) as Promise<Response>;
    const pathname = new URL(req.url).pathname;
    const upgrading = req.headers.get("upgrade")?.toLowerCase() === "websocket";
    if (upgrading && pathname === "/api/ws") return (await hub.upgrade(req, server as Server<unknown>)) as Response;
    if (upgrading && pty && PTY_PATH.test(pathname)) return (await pty.upgrade(req, server as Server<unknown>)) as Response;
    return options.fetch(req);
  };
  // Not async: a site answer from memory goes out without an extra turn of the event loop.
  const serve = (req: Request, server: Server<SocketData>, hidden: boolean) => {
    // Before anything else: no internal request is served, anywhere, without the shared secret.
    const refused = options.instances?.auth.refuse(req);
    if (refused) return refused;
    const started = performance.now();
    const siteResponse = options.sites?.handle(req, { hidesDotSegments: hidden }, server as Server<unknown>);
    if (siteResponse) return countProxyRequest("site", siteResponse, started);
    return rest(req, server);
  };
  return Bun.serve<SocketData>({
    port: options.port,
    hostname: options.hostname,
    // Chat streams stay open for minutes; Bun's default 10 s idle timeout would cut them.
    idleTimeout: 255,
    // Every path with a segment passes through these routes only so a site request's raw segments can be read
    // (req.url has its dot segments resolved); the routes serve exactly what `fetch` serves.
    routes: rawSegmentRoutes({
      segments: (req: Request & { params: Record<string, string> }, server: Server<SocketData>) => serve(req, server, hidesDotSegments(req.params)),
      tooDeep: (req: Request, server: Server<SocketData>) => serve(req, server, true),
    }),
    fetch: (req, server) => serve(req, server, false),
    websocket: {
      open: (ws) => handlers[ws.data.kind].open?.(ws),
      message: (ws, message) => handlers[ws.data.kind].message?.(ws, message),
      close: (ws, code, reason) => handlers[ws.data.kind].close?.(ws, code, reason),
    },
  });
}
