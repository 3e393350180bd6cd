/**
 * The file-event WebSocket at GET /api/ws. A browser cannot set headers on a WebSocket, so the Firebase
 * ID token travels in the subprotocol list (`[WS_PROTOCOL, token]`), never in the URL (which gets logged).
 * A socket subscribes to projects it may view (services/access.ts); bus events (file changes, build progress)
 * are forwarded to the sockets subscribed to the project, which only a checked subscription can be. When a
 * person's place in a project changes (`project.access.changed`, from any instance), their sockets on it are
 * checked again, and one that may no longer view it is unsubscribed: a removed member hears nothing more. A
 * person an administrator disabled (`user.disabled`) has every socket closed, and is refused a new one.
 * When the bus comes back from a lost connection, every subscription gets `resync`, since events were lost.
 * Whenever a project's sockets change, each of them is told who has it open (`presence`, ./presence.ts), here
 * and on the other instances (./presence-relay.ts relays each hub's people over the bus).
 */
import { deploymentEventSchema } from "@shared/events/deployment-events";
import { clientSocketMessageSchema, WS_PROTOCOL, type ServerSocketMessage } from "@shared/events/project-events";
import type { Server, ServerWebSocket, WebSocketHandler } from "bun";
import type { Identity, TokenVerifier } from "../auth/types";
import type { EventBus } from "../events/types";
import { AppError } from "../lib/errors";
import type { Logger } from "../lib/logger";
import type { ServiceContext } from "../services/context";
import { projectAccess } from "../services/access";
import { presentPeople } from "./presence";
import { createPresenceRelay, mergePeople } from "./presence-relay";
import { ACCESS_CHANGED, PRESENCE } from "@shared/events/team-events";

export type HubSocketData = { kind: "hub"; caller: Identity; projects: Set<string>; expiry?: ReturnType<typeof setTimeout> };

/** Close code when the token a socket was opened with expires; the client reconnects with a fresh token. */
export const TOKEN_EXPIRED_CLOSE = 4401;
/** Close code when an administrator disabled the account the socket was opened for. */
export const ACCOUNT_DISABLED_CLOSE = 4403;
// setTimeout holds at most 2^31-1 ms (about 24.8 days); a longer wait would fire at once.
const MAX_TIMER_MS = 2 ** 31 - 1;

export type WsHub = {
  /** Answers the upgrade (or an error response); undefined means Bun took the connection. */
  upgrade(req: Request, server: Server<unknown>): Promise<Response | undefined>;
  handler: WebSocketHandler<HubSocketData>;
  clientCount(): number;
  close(): void;
};

export function createWsHub(
  deps: ServiceContext & {
    verifyToken: TokenVerifier;
    events: EventBus;
    logger: Logger;
    /** The signed-in check after the token (services/users.ts `UserGate.admit`): a disabled account is refused. */
    admit?: (caller: Identity) => Promise<void>;
  },
): WsHub {
  const byProject = new Map<string, Set<ServerWebSocket<HubSocketData>>>();
  const all = new Set<ServerWebSocket<HubSocketData>>();
  const send = (ws: ServerWebSocket<HubSocketData>, message: ServerSocketMessage): void => void ws.send(JSON.stringify(message));

  const unsubscribeBus = deps.events.subscribe((event) => {
    // File events, the problem list's `problems.changed` and the named processes' output and status go to
    // browsers; other bus events (`sandbox.stop`, `project.env.changed`, `secret.declined`) are the API's own.
    if (event.type === "presence.relay") return; // ./presence-relay.ts
    if (event.type === "project.access.changed") return void recheck(event.projectId, event.userId);
    if (event.type === "user.disabled") return closeUser(event.userId);
    if (
      event.type === "sandbox.stop" ||
      event.type === "project.env.changed" ||
      event.type === "secret.declined" ||
      event.type === "share_link.revoked" ||
      event.type === "user.enabled" ||
      event.type === "run.stop"
    )
      return;
    const sockets = byProject.get(event.projectId);
    if (!sockets) return;
    const { ownerId: _ownerId, origin: _origin, pushedBy: _pushedBy, ...message } = event;
    const text = JSON.stringify(message);
    for (const ws of sockets) ws.send(text);
  });

  // Events published while the bus was reconnecting never arrive: every subscribed socket is told to refetch.
  const unsubscribeResync = deps.events.onResync(() => {
    for (const [projectId, sockets] of byProject) {
      const text = JSON.stringify({ type: "resync", projectId } satisfies ServerSocketMessage);
      for (const ws of sockets) ws.send(text);
    }
  });

  // Build progress of a publish goes the same way: to the sockets subscribed to the project, in
  // exactly the shared schema's shape (the browser parses it with the same schema; extra fields a producer
  // spreads in stay on the bus).
  const unsubscribeSites = deps.events.subscribeSite((event) => {
    if (event.type === "site.changed") return;
    const sockets = byProject.get(event.projectId);
    if (!sockets) return;
    const { ownerId: _ownerId, ...rest } = event;
    const message = deploymentEventSchema.safeParse(rest);
    if (!message.success) return deps.logger.warn("malformed deployment event not forwarded", { type: event.type });
    const text = JSON.stringify(message.data);
    for (const ws of sockets) ws.send(text);
  });

  /** The person's sockets on the project, checked again; one that may no longer view it is unsubscribed. */
  async function recheck(projectId: string, userId: string): Promise<void> {
    const theirs = [...(byProject.get(projectId) ?? [])].filter((ws) => ws.data.caller.uid === userId);
    if (!theirs.length) return;
    const allowed = await projectAccess(deps, userId, projectId, "view").then(
      () => true,
      (error: unknown) => (error instanceof AppError ? false : null),
    );
    if (allowed === null) return; // the check could not run (the next one decides)
    // Told either way, so their screens read the project again and follow the new role (or its 404).
    for (const ws of theirs) send(ws, { type: ACCESS_CHANGED, projectId });
    if (allowed) return;
    for (const ws of theirs) {
      leave(ws, projectId);
      send(ws, { type: "error", message: "Project not found" });
    }
  }

  /** An administrator disabled the person: their sockets close (a reconnect is refused at the upgrade). */
  function closeUser(userId: string): void {
    for (const ws of all) if (ws.data.caller.uid === userId) ws.close(ACCOUNT_DISABLED_CLOSE, "account disabled");
  }

  const here = (projectId: string) => presentPeople(byProject.get(projectId) ?? []);
  /** Tells every socket on the project who has it open now, on this instance and the others. */
  const announcePresence = (projectId: string) => {
    const sockets = byProject.get(projectId);
    if (!sockets) return;
    const people = mergePeople(here(projectId), relay.elsewhere(projectId));
    const text = JSON.stringify({ type: PRESENCE, projectId, people } satisfies ServerSocketMessage);
    for (const ws of sockets) ws.send(text);
  };
  const relay = createPresenceRelay({ events: deps.events, logger: deps.logger, changed: announcePresence, here });

  const leave = (ws: ServerWebSocket<HubSocketData>, projectId: string) => {
    ws.data.projects.delete(projectId);
    const set = byProject.get(projectId);
    if (!set?.delete(ws)) return;
    if (set.size === 0) byProject.delete(projectId);
    else announcePresence(projectId);
    relay.tell(projectId, here(projectId));
  };

  return {
    async upgrade(req, server) {
      const offered = (req.headers.get("sec-websocket-protocol") ?? "").split(",").map((p) => p.trim());
      const token = offered.find((p) => p !== WS_PROTOCOL && p.length > 0);
      if (!offered.includes(WS_PROTOCOL) || !token) {
        return Response.json({ error: `Connect with subprotocols ["${WS_PROTOCOL}", <ID token>].`, code: "unauthorized" }, { status: 401 });
      }
      let caller: Identity;
      try {
        caller = await deps.verifyToken(token);
        await deps.admit?.(caller);
      } catch (error) {
        // A disabled account is told so (403); any other failure is a sign-in to do again.
        if (error instanceof AppError && error.status === 403) return Response.json({ error: error.message, code: error.code }, { status: 403 });
        const message = error instanceof AppError ? error.message : "Sign in again.";
        return Response.json({ error: message, code: "unauthorized" }, { status: 401 });
      }
      const data: HubSocketData = { kind: "hub", caller, projects: new Set() };
      if (server.upgrade(req, { data, headers: { "Sec-WebSocket-Protocol": WS_PROTOCOL } })) return undefined;
      return Response.json({ error: "Expected a WebSocket upgrade.", code: "bad_request" }, { status: 400 });
    },
    handler: {
      open(ws) {
        all.add(ws);
        // A socket is subscribed on the strength of its token, so only while that token is valid: at its `exp`
        // the socket closes and the browser reconnects with a fresh one (or cannot, once signed out).
        const expiresAt = ws.data.caller.expiresAt;
        if (expiresAt !== undefined) {
          const closeNow = () => ws.close(TOKEN_EXPIRED_CLOSE, "sign-in expired; reconnect with a fresh token");
          const wait = expiresAt - Date.now();
          if (wait <= 0) return closeNow();
          ws.data.expiry = setTimeout(closeNow, Math.min(wait, MAX_TIMER_MS));
        }
      },
      async message(ws, raw) {
        let parsed;
        try {
          parsed = clientSocketMessageSchema.safeParse(JSON.parse(String(raw)));
        } catch {
          parsed = null;
        }
        if (!parsed?.success) return send(ws, { type: "error", message: 'Send {"type":"subscribe","projectId":"…"}.' });
        const { type, projectId } = parsed.data;
        if (type === "unsubscribe") return leave(ws, projectId);
        try {
          await projectAccess(deps, ws.data.caller.uid, projectId, "view");
        } catch {
          return send(ws, { type: "error", message: "Project not found" });
        }
        ws.data.projects.add(projectId);
        if (!byProject.has(projectId)) byProject.set(projectId, new Set());
        byProject.get(projectId)!.add(ws);
        send(ws, { type: "subscribed", projectId });
        announcePresence(projectId);
        relay.tell(projectId, here(projectId), true);
      },
      close(ws) {
        clearTimeout(ws.data.expiry);
        all.delete(ws);
        for (const projectId of [...ws.data.projects]) leave(ws, projectId);
      },
    },
    clientCount: () => all.size,
    close() {
      unsubscribeBus();
      unsubscribeSites();
      unsubscribeResync();
      // The other instances stop listing this one's people.
      for (const projectId of byProject.keys()) relay.tell(projectId, []);
      relay.close();
      for (const ws of all) ws.close(1001, "server shutting down");
    },
  };
}
