/**
 * The Bun server in front of the Hono app: preview hosts go to the preview proxy, `/api/ws` to the
 * file-event hub, everything else to the app. One WebSocket handler serves both kinds of socket.
 */
import type { Server, WebSocketHandler } from "bun";
import type { PreviewProxy, PreviewSocketData } from "./realtime/preview-proxy";
import type { HubSocketData, WsHub } from "./realtime/ws-hub";

type SocketData = HubSocketData | PreviewSocketData;

export function serveHttp(options: {
  port: number;
  hostname: string;
  fetch: (req: Request) => Response | Promise<Response>;
  hub: WsHub;
  preview: PreviewProxy;
}): Server<SocketData> {
  const { hub, preview } = options;
  const handlers = { hub: hub.handler, preview: preview.handler } as unknown as Record<SocketData["kind"], WebSocketHandler<SocketData>>;
  return Bun.serve<SocketData>({
    port: options.port,
    hostname: options.hostname,
    // Chat streams stay open for minutes; Bun's default 10 s idle timeout would cut them.
    idleTimeout: 255,
    async fetch(req, server) {
      const previewResponse = preview.handle(req, server as Server<unknown>);
      if (previewResponse) return previewResponse as Promise<Response>;
      if (new URL(req.url).pathname === "/api/ws" && req.headers.get("upgrade")?.toLowerCase() === "websocket") {
        return (await hub.upgrade(req, server as Server<unknown>)) as Response;
      }
      return options.fetch(req);
    },
    websocket: {
      open: (ws) => handlers[ws.data.kind].open?.(ws),
      message: (ws, message) => handlers[ws.data.kind].message?.(ws, message),
      close: (ws, code, reason) => handlers[ws.data.kind].close?.(ws, code, reason),
    },
  });
}
