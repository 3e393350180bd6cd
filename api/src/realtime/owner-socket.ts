/**
 * WebSockets about a sandbox that runs on another instance (a terminal, a preview's hot reload): the browser's
 * socket is accepted here and bridged (lib/forward-socket.ts), frame for frame, to the same path on the owning
 * instance, which checks the user and serves it as if it had come directly. The upstream handshake carries
 * INSTANCE_SECRET (lib/instance-auth.ts) and the browser's own headers (Host, cookies, subprotocols: its sign-in).
 *
 * @example
 * return ownerSockets.upgrade(req, server, owner.url, PTY_PROTOCOL, () => owners.gone(owner.url));
 */
import type { Server, WebSocketHandler } from "bun";
import { type BridgedSocketData, bridgeHandler, requestedProtocols } from "../lib/forward-socket";
import type { InstanceAuth } from "../lib/instance-auth";
import { HOP_HEADERS } from "../lib/proxy-headers";

export type OwnerSocketData = BridgedSocketData & { kind: "owner" };

export type OwnerSockets = {
  /** Accepts the browser's socket (answering `protocol`, if given) and bridges it to `ownerUrl`; undefined once upgraded. */
  upgrade(req: Request, server: Server<unknown>, ownerUrl: string, protocol: string | undefined, onGone: () => void): Response | undefined;
  handler: WebSocketHandler<OwnerSocketData>;
};

/** Set by the WebSocket handshake itself (the upstream makes its own). */
const HANDSHAKE = ["sec-websocket-key", "sec-websocket-version", "sec-websocket-extensions", "sec-websocket-protocol", "content-length", "host"];
/** How long the owner gets to answer, once its socket failed, before it is taken as gone. */
const PROBE_MS = 2_000;

export function createOwnerSockets(auth: InstanceAuth): OwnerSockets {
  return {
    upgrade(req, server, ownerUrl, protocol, onGone) {
      const url = new URL(req.url);
      const headers = new Headers(req.headers);
      for (const h of [...HOP_HEADERS, ...HANDSHAKE]) headers.delete(h);
      auth.sign(headers);
      const data: OwnerSocketData = {
        kind: "owner",
        url: `${ownerUrl.replace(/^http/, "ws")}${url.pathname}${url.search}`,
        host: req.headers.get("host") ?? url.host,
        protocols: requestedProtocols(req),
        pending: [],
        headers: Object.fromEntries(headers),
        // A refused upgrade also ends there: only an owner that does not answer at all is taken as gone.
        onUnreachable: () =>
          void fetch(`${ownerUrl}/api/health`, { signal: AbortSignal.timeout(PROBE_MS) }).then(
            () => {},
            () => onGone(),
          ),
      };
      const answer = protocol ? { "Sec-WebSocket-Protocol": protocol } : undefined;
      return server.upgrade(req, { data, headers: answer }) ? undefined : new Response("WebSocket upgrade failed", { status: 400 });
    },
    handler: bridgeHandler<OwnerSocketData>({ errorReason: "the sandbox's server is unreachable; connect again" }),
  };
}
