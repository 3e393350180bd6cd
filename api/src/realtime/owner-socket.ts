/**
 * WebSockets about a sandbox that runs on another instance (a terminal, a preview's hot reload): the browser's
 * socket is accepted here and bridged, frame for frame, to the same path on the owning instance, which checks
 * the user and serves it as if it had come directly. The upstream request carries INSTANCE_SECRET
 * (lib/instance-auth.ts) and the browser's own headers (Host, cookies, subprotocols: its sign-in).
 *
 * @example
 * return ownerSockets.upgrade(req, server, owner.url, PTY_PROTOCOL, () => owners.gone(owner.url));
 */
import type { Server, ServerWebSocket, WebSocketHandler } from "bun";
import type { InstanceAuth } from "../lib/instance-auth";
import { HOP_HEADERS } from "../lib/proxy-headers";

export type OwnerSocketData = {
  kind: "owner";
  ownerUrl: string;
  url: string;
  headers: Record<string, string>;
  protocols: string[];
  upstream?: WebSocket;
  opened: boolean;
  pending: (string | Buffer)[];
  /** The owner could not be reached at all (its process is gone). */
  onUnreachable: () => void;
};

export type OwnerSockets = {
  /** Accepts the browser's socket (answering `protocol`, if given) and bridges it to `ownerUrl`; undefined once upgraded. */
  upgrade(req: Request, server: Server<unknown>, ownerUrl: string, protocol: string | undefined, onUnreachable: () => void): Response | undefined;
  handler: WebSocketHandler<OwnerSocketData>;
};

/** How long the owner gets to answer, once its socket failed, before it is taken as gone. */
const PROBE_MS = 2_000;

/** Set by the WebSocket handshake itself (the upstream makes its own). */
const HANDSHAKE = ["sec-websocket-key", "sec-websocket-version", "sec-websocket-extensions", "sec-websocket-protocol", "content-length"];

export function createOwnerSockets(auth: InstanceAuth): OwnerSockets {
  return {
    upgrade(req, server, ownerUrl, protocol, onUnreachable) {
      const url = new URL(req.url);
      const headers = new Headers(req.headers);
      for (const h of [...HOP_HEADERS, ...HANDSHAKE]) headers.delete(h);
      auth.sign(headers);
      const protocols = (req.headers.get("sec-websocket-protocol") ?? "")
        .split(",")
        .map((p) => p.trim())
        .filter(Boolean);
      const data: OwnerSocketData = {
        kind: "owner",
        ownerUrl,
        url: `${ownerUrl.replace(/^http/, "ws")}${url.pathname}${url.search}`,
        headers: Object.fromEntries(headers),
        protocols,
        opened: false,
        pending: [],
        onUnreachable,
      };
      const answer = protocol ? { "Sec-WebSocket-Protocol": protocol } : undefined;
      return server.upgrade(req, { data, headers: answer }) ? undefined : new Response("WebSocket upgrade failed", { status: 400 });
    },
    handler: {
      open(ws: ServerWebSocket<OwnerSocketData>) {
        const upstream = new WebSocket(ws.data.url, { headers: ws.data.headers, protocols: ws.data.protocols } as never);
        upstream.binaryType = "arraybuffer";
        ws.data.upstream = upstream;
        upstream.onopen = () => {
          ws.data.opened = true;
          for (const m of ws.data.pending) upstream.send(m);
          ws.data.pending = [];
        };
        upstream.onmessage = (e) => void ws.send(typeof e.data === "string" ? e.data : new Uint8Array(e.data as ArrayBuffer));
        upstream.onclose = (e) => {
          if (!ws.data.opened) {
            // A refused upgrade also ends here: only an owner that does not answer at all is taken as gone.
            void fetch(`${ws.data.ownerUrl}/api/health`, { signal: AbortSignal.timeout(PROBE_MS) }).then(
              () => {},
              () => ws.data.onUnreachable(),
            );
            return ws.close(1011, "the sandbox's server is unreachable; connect again");
          }
          ws.close(e.code === 1005 || e.code === 1006 ? 1011 : e.code, e.reason);
        };
      },
      message(ws, message) {
        const upstream = ws.data.upstream;
        if (upstream?.readyState === WebSocket.OPEN) upstream.send(message);
        else ws.data.pending.push(message);
      },
      close(ws) {
        ws.data.opened = true; // the browser left: not a sign of the owner being gone
        ws.data.upstream?.close();
      },
    },
  };
}
