/**
 * A visitor's WebSocket bridged to someone's code behind a reverse proxy (a preview's sandbox port, a published
 * server): the upgrade answers with the first subprotocol asked for (Vite's HMR needs `vite-hmr` back),
 * messages sent before upstream opens are held and flushed, and either side closing closes the other. Shared
 * by the preview proxy and the proxy in front of published servers, as forward-http.ts is for plain requests.
 *
 * @example
 * const data = { kind: "site", url: `ws://${upstream}`, host, protocols: requestedProtocols(req), pending: [] };
 * return upgradeToUpstream(req, server, data); // undefined once upgraded
 * Bun.serve({ websocket: bridgeHandler({ errorReason: "site upstream error" }) });
 */
import type { Server, ServerWebSocket, WebSocketHandler } from "bun";

export type BridgedSocketData = { url: string; host: string; protocols: string[]; upstream?: WebSocket; pending: (string | Buffer)[] };

/** The subprotocols the visitor's upgrade asked for, in order. */
export function requestedProtocols(req: Request): string[] {
  return (req.headers.get("sec-websocket-protocol") ?? "")
    .split(",")
    .map((p) => p.trim())
    .filter(Boolean);
}

/** Upgrades the visitor's request (undefined when done), or answers 400 when Bun cannot. */
export function upgradeToUpstream<T extends BridgedSocketData>(req: Request, server: Server<unknown>, data: T): Response | undefined {
  const headers = data.protocols.length ? { "Sec-WebSocket-Protocol": data.protocols[0]! } : undefined;
  return server.upgrade(req, { data, headers }) ? undefined : new Response("WebSocket upgrade failed", { status: 400 });
}

/** The socket handler: opens upstream on open; `onUpstreamText` sees each text message before the visitor does. */
export function bridgeHandler<T extends BridgedSocketData>(o: {
  errorReason: string;
  onUpstreamText?: (ws: ServerWebSocket<T>, text: string) => void;
}): WebSocketHandler<T> {
  return {
    open(ws: ServerWebSocket<T>) {
      const upstream = new WebSocket(ws.data.url, { headers: { host: ws.data.host }, protocols: ws.data.protocols } as never);
      upstream.binaryType = "arraybuffer";
      ws.data.upstream = upstream;
      upstream.onopen = () => {
        for (const m of ws.data.pending) upstream.send(m);
        ws.data.pending = [];
      };
      upstream.onmessage = (e) => {
        if (typeof e.data === "string") o.onUpstreamText?.(ws, e.data);
        ws.send(typeof e.data === "string" ? e.data : new Uint8Array(e.data as ArrayBuffer));
      };
      // 1005/1006 (no status, abnormal) may not be sent in a close frame: the visitor hears 1011 instead.
      upstream.onclose = (e) => ws.close(e.code === 1005 || e.code === 1006 ? 1011 : e.code, e.reason);
      upstream.onerror = () => ws.close(1011, o.errorReason);
    },
    message(ws, message) {
      const upstream = ws.data.upstream;
      if (upstream?.readyState === WebSocket.OPEN) upstream.send(message);
      else ws.data.pending.push(message);
    },
    close(ws) {
      ws.data.upstream?.close();
    },
  };
}
