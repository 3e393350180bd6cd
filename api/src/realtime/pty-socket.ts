/**
 * The interactive terminal's WebSocket at GET /api/sandbox/{projectId}/pty: authenticated like the file-event
 * hub (the ID token in the subprotocol list, never the URL), access-checked for `edit` before the upgrade (404
 * for a stranger, 403 for a viewer), then bridged to a terminal session in binary frames (shared/events/pty-frames.ts).
 *
 * The socket outlives the token it was opened with only while the browser sends fresh ones (a TOKEN frame):
 * a shell must not end every hour with the ID token, nor stay open for a signed-out user. Nor does it outlive
 * the person's right to it: when their place in the project changes (`project.access.changed`, from any
 * instance), it is checked again and the terminal closes once they may no longer edit, nor once an
 * administrator disabled the account (`user.disabled`).
 */
import {
  decodePtyFrame,
  decodeResize,
  clampTerminalSize,
  encodePtyFrame,
  MAX_PTY_MESSAGE_BYTES,
  PTY_CLOSE,
  PTY_EXIT,
  PTY_INPUT,
  PTY_OUTPUT,
  PTY_PROTOCOL,
  PTY_RESIZE,
  PTY_TOKEN,
} from "@shared/events/pty-frames";
import type { Server, ServerWebSocket, WebSocketHandler } from "bun";
import type { Identity, TokenVerifier } from "../auth/types";
import { AppError } from "../lib/errors";
import type { Logger } from "../lib/logger";
import type { ServiceContext } from "../services/context";
import { type ProjectAccess, projectAccess } from "../services/access";
import type { OpenTerminal, TerminalEnd, TerminalSessions } from "../services/sandboxes/terminals";
import { TOKEN_EXPIRED_CLOSE } from "./ws-hub";

export const PTY_PATH = /^\/api\/sandbox\/([^/]+)\/pty$/;
/** Input that arrives while the shell is still starting is kept, up to this much. */
const MAX_EARLY_INPUT = 256 * 1024;
const MAX_TIMER_MS = 2 ** 31 - 1;

export type PtySocketData = {
  kind: "pty";
  caller: Identity;
  projectId: string;
  /** The caller's checked access, as of the upgrade. */
  access: ProjectAccess;
  cols: number;
  rows: number;
  session?: OpenTerminal;
  /** Input and resizes received before the session opened. */
  early: Uint8Array[];
  earlyBytes: number;
  closed?: boolean;
  expiry?: ReturnType<typeof setTimeout>;
};

export type PtySocket = {
  /** Answers the upgrade (or an error response); undefined means Bun took the connection. */
  upgrade(req: Request, server: Server<unknown>): Promise<Response | undefined>;
  handler: WebSocketHandler<PtySocketData>;
  clientCount(): number;
  close(): void;
};

export function createPtySocket(
  deps: ServiceContext & {
    verifyToken: TokenVerifier;
    terminals: TerminalSessions;
    logger: Logger;
    /** The signed-in check after the token (services/users.ts `UserGate.admit`): a disabled account is refused. */
    admit?: (caller: Identity) => Promise<void>;
    /**
     * Once the caller may use the terminal: when the project's sandbox runs on another instance, bridges the
     * socket there (undefined: upgraded, or the failed upgrade's answer); null serves it here.
     */
    forward?: (req: Request, server: Server<unknown>, projectId: string) => Promise<Response | undefined | null>;
  },
): PtySocket {
  const all = new Set<ServerWebSocket<PtySocketData>>();
  const fail = (status: number, code: string, error: string) => Response.json({ error, code }, { status });

  const closeSocket = (ws: ServerWebSocket<PtySocketData>, code: number, reason: string) => {
    ws.data.closed = true;
    ws.close(code, reason.slice(0, 120));
  };

  /** Closes the socket at the token's `exp` unless a fresher token arrives first. */
  const armExpiry = (ws: ServerWebSocket<PtySocketData>) => {
    clearTimeout(ws.data.expiry);
    const expiresAt = ws.data.caller.expiresAt;
    if (expiresAt === undefined) return;
    const closeNow = () => closeSocket(ws, TOKEN_EXPIRED_CLOSE, "sign-in expired; reconnect with a fresh token");
    const wait = expiresAt - Date.now();
    if (wait <= 0) return closeNow();
    ws.data.expiry = setTimeout(closeNow, Math.min(wait, MAX_TIMER_MS));
  };

  const unsubscribe = deps.events.subscribe((event) => {
    if (event.type === "user.disabled") {
      for (const ws of all) if (ws.data.caller.uid === event.userId && !ws.data.closed) closeSocket(ws, PTY_CLOSE.forbidden, "account disabled");
      return;
    }
    if (event.type !== "project.access.changed") return;
    const theirs = [...all].filter((ws) => ws.data.projectId === event.projectId && ws.data.caller.uid === event.userId && !ws.data.closed);
    if (!theirs.length) return;
    void projectAccess(deps, event.userId, event.projectId, "edit").then(
      () => {},
      (error: unknown) => {
        if (!(error instanceof AppError)) return; // the check could not run: the next change decides
        const code = error.status === 403 ? PTY_CLOSE.forbidden : PTY_CLOSE.notFound;
        for (const ws of theirs) closeSocket(ws, code, error.message);
      },
    );
  });

  const apply = (ws: ServerWebSocket<PtySocketData>, kind: number, payload: Uint8Array) => {
    const session = ws.data.session!;
    if (kind === PTY_INPUT) session.input(payload);
    else if (kind === PTY_RESIZE) {
      const size = decodeResize(payload);
      if (size) session.resize(size.cols, size.rows);
    }
  };

  const refreshToken = async (ws: ServerWebSocket<PtySocketData>, payload: Uint8Array) => {
    try {
      const fresh = await deps.verifyToken(new TextDecoder().decode(payload));
      // Only the same person's fresher token extends the socket.
      if (fresh.uid !== ws.data.caller.uid) return closeSocket(ws, TOKEN_EXPIRED_CLOSE, "a different user's token");
      ws.data.caller = fresh;
      if (!ws.data.closed) armExpiry(ws);
    } catch {
      // A bad token changes nothing: the socket still ends when the good one expires.
    }
  };

  return {
    async upgrade(req, server) {
      const projectId = PTY_PATH.exec(new URL(req.url).pathname)?.[1] ?? "";
      const offered = (req.headers.get("sec-websocket-protocol") ?? "").split(",").map((p) => p.trim());
      const token = offered.find((p) => p !== PTY_PROTOCOL && p.length > 0);
      if (!offered.includes(PTY_PROTOCOL) || !token) {
        return fail(401, "unauthorized", `Connect with subprotocols ["${PTY_PROTOCOL}", <ID token>].`);
      }
      let caller: Identity;
      try {
        caller = await deps.verifyToken(token);
      } catch (error) {
        return fail(401, "unauthorized", error instanceof AppError ? error.message : "Sign in again.");
      }
      try {
        await deps.admit?.(caller);
      } catch (error) {
        if (error instanceof AppError) return fail(error.status, error.code, error.message);
        throw error;
      }
      let access: ProjectAccess;
      try {
        access = await projectAccess(deps, caller.uid, projectId, "edit");
      } catch (error) {
        if (error instanceof AppError) return fail(error.status, error.code, error.message);
        throw error;
      }
      if (deps.forward) {
        const forwarded = await deps.forward(req, server, projectId);
        if (forwarded !== null) return forwarded;
      }
      const url = new URL(req.url);
      const data: PtySocketData = {
        kind: "pty",
        caller,
        projectId,
        access,
        cols: clampTerminalSize(Number(url.searchParams.get("cols") ?? 80)),
        rows: clampTerminalSize(Number(url.searchParams.get("rows") ?? 24)),
        early: [],
        earlyBytes: 0,
      };
      if (server.upgrade(req, { data, headers: { "Sec-WebSocket-Protocol": PTY_PROTOCOL } })) return undefined;
      return fail(400, "bad_request", "Expected a WebSocket upgrade.");
    },
    handler: {
      async open(ws) {
        all.add(ws);
        armExpiry(ws);
        if (ws.data.closed) return;
        const { access, projectId, cols, rows } = ws.data;
        try {
          const session = await deps.terminals.open(access, {
            cols,
            rows,
            onData: (bytes) => void ws.send(encodePtyFrame(PTY_OUTPUT, bytes)),
            onEnd: (end: TerminalEnd) => {
              if (ws.data.closed) return;
              if (end.reason === "exit") {
                ws.send(encodePtyFrame(PTY_EXIT, new TextEncoder().encode(JSON.stringify({ code: end.code }))));
                closeSocket(ws, 1000, "the shell ended");
              } else {
                closeSocket(ws, PTY_CLOSE.idle, `closed after ${Math.round(end.idleMs / 1000)} s without input or output`);
              }
            },
          });
          if (ws.data.closed) return session.close();
          ws.data.session = session;
          for (const message of ws.data.early.splice(0)) apply(ws, message[0]!, message.subarray(1));
        } catch (error) {
          if (ws.data.closed) return;
          if (error instanceof AppError && error.status === 404) return closeSocket(ws, PTY_CLOSE.notFound, error.message);
          if (error instanceof AppError && error.status === 409) return closeSocket(ws, PTY_CLOSE.tooMany, error.message);
          deps.logger.warn("could not open a terminal", { projectId, error: String(error) });
          closeSocket(ws, PTY_CLOSE.unavailable, error instanceof AppError ? error.message : "The sandbox's terminal could not start.");
        }
      },
      message(ws, raw) {
        if (ws.data.closed) return;
        const bytes = typeof raw === "string" ? new TextEncoder().encode(raw) : new Uint8Array(raw);
        if (bytes.length > MAX_PTY_MESSAGE_BYTES) {
          return closeSocket(ws, 1009, `a message may be at most ${MAX_PTY_MESSAGE_BYTES} bytes`);
        }
        const frame = decodePtyFrame(bytes);
        if (!frame) return;
        if (frame.kind === PTY_TOKEN) return void refreshToken(ws, frame.payload);
        if (ws.data.session) return apply(ws, frame.kind, frame.payload);
        ws.data.earlyBytes += bytes.length;
        if (ws.data.earlyBytes > MAX_EARLY_INPUT) return closeSocket(ws, 1009, "too much input before the terminal started");
        ws.data.early.push(bytes);
      },
      close(ws) {
        ws.data.closed = true;
        clearTimeout(ws.data.expiry);
        all.delete(ws);
        ws.data.session?.close();
      },
    },
    clientCount: () => all.size,
    close() {
      unsubscribe();
      for (const ws of all) closeSocket(ws, 1001, "server shutting down");
    },
  };
}
