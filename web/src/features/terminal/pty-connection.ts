/**
 * One interactive terminal session from the browser: a WebSocket to the sandbox's PTY, authenticated with
 * the ID token in the subprotocol list, speaking the binary frames of shared/events/pty-frames.ts. Keys go
 * out as UTF-8 (split under the 64 KB message limit), output comes back as bytes for xterm, and a fresh
 * token is sent every few minutes so the session outlives the token it was opened with.
 *
 * @example
 * const conn = openPtyConnection({ projectId, cols: 80, rows: 24, onOutput: (b) => term.write(b), onEnd: (t) => term.write(t) });
 * term.onData((keys) => conn.send(keys));
 */
import { decodePtyFrame, encodePtyFrame, encodeResize, inputFrames, PTY_CLOSE, PTY_EXIT, PTY_OUTPUT, PTY_PROTOCOL, PTY_TOKEN } from "@shared/events/pty-frames";
import { getAuthToken } from "../../api/auth-token";
import { api } from "../../api/endpoints";

/** How often a fresh ID token is sent (Firebase tokens live an hour; getIdToken refreshes them near the end). */
export const TOKEN_REFRESH_MS = 5 * 60_000;
const OPEN = 1;

type SocketLike = Pick<WebSocket, "send" | "close" | "readyState" | "binaryType"> & {
  onopen: ((ev: Event) => unknown) | null;
  onmessage: ((ev: MessageEvent) => unknown) | null;
  onclose: ((ev: CloseEvent) => unknown) | null;
};

export type PtyConnectionOptions = {
  projectId: string;
  cols: number;
  rows: number;
  onOutput: (bytes: Uint8Array) => void;
  /** The session is over: a line to print (already terminal-formatted). Called once. */
  onEnd: (notice: string) => void;
  getToken?: () => Promise<string | null>;
  createSocket?: (url: string, protocols: string[]) => SocketLike;
  url?: (projectId: string, size: { cols: number; rows: number }) => string;
};

export type PtyConnection = {
  /** Keys as xterm reports them (`onData`). */
  send(keys: string): void;
  resize(cols: number, rows: number): void;
  /** Hangs up (the tab was closed). No `onEnd` follows. */
  close(): void;
};

const DIM = "\x1b[2m";
const RED = "\x1b[31m";
const RESET = "\x1b[0m";

/** What to print when the session ends, from the exit status the server sent or the socket's close code. */
export function endNotice(exitCode: number | null | undefined, close: { code: number; reason: string }): string {
  const again = " Press Enter to start a new session.";
  const line = (text: string, color = DIM) => `\r\n${color}[${text}]${RESET}\r\n`;
  if (exitCode !== undefined) return line(`Shell exited${exitCode === null ? "" : ` with code ${exitCode}`}.${again}`);
  switch (close.code) {
    case PTY_CLOSE.idle:
      return line(`Session ${close.reason || "closed for inactivity"}.${again}`);
    case PTY_CLOSE.tooMany:
    case PTY_CLOSE.notFound:
    case PTY_CLOSE.unavailable:
      return line(`${close.reason || "The terminal could not start"}${again}`, RED);
    case 4401:
      return line(`Signed out: sign in again, then press Enter.`, RED);
    case 1009:
      return line(`Disconnected: ${close.reason || "a message was too large"}.${again}`, RED);
    default:
      return line(`Disconnected${close.reason ? `: ${close.reason}` : ""}.${again}`, RED);
  }
}

export function openPtyConnection(options: PtyConnectionOptions): PtyConnection {
  const getToken = options.getToken ?? getAuthToken;
  const createSocket = options.createSocket ?? ((url, protocols) => new WebSocket(url, protocols));
  const url = options.url ?? ((projectId, size) => api.sandbox.ptySocketUrl(projectId, size));
  const encoder = new TextEncoder();
  let socket: SocketLike | null = null;
  let size = { cols: options.cols, rows: options.rows };
  let ended = false;
  let exitCode: number | null | undefined;
  let refresh: ReturnType<typeof setInterval> | undefined;
  /** Keys typed while the socket was still opening. */
  const queued: Uint8Array<ArrayBuffer>[] = [];

  const end = (notice: string) => {
    if (ended) return;
    ended = true;
    clearInterval(refresh);
    options.onEnd(notice);
  };
  const sendFrame = (frame: Uint8Array<ArrayBuffer>) => {
    if (socket?.readyState === OPEN) socket.send(frame);
    else if (!ended) queued.push(frame);
  };

  void (async () => {
    const token = await getToken().catch(() => null);
    if (ended) return;
    if (!token) return end(endNotice(undefined, { code: 4401, reason: "" }));
    const ws = createSocket(url(options.projectId, size), [PTY_PROTOCOL, token]);
    socket = ws;
    ws.binaryType = "arraybuffer";
    ws.onopen = () => {
      for (const frame of queued.splice(0)) ws.send(frame);
      refresh = setInterval(async () => {
        const fresh = await getToken().catch(() => null);
        if (fresh && ws.readyState === OPEN) ws.send(encodePtyFrame(PTY_TOKEN, encoder.encode(fresh)));
      }, TOKEN_REFRESH_MS);
    };
    ws.onmessage = (event) => {
      if (!(event.data instanceof ArrayBuffer)) return;
      const frame = decodePtyFrame(new Uint8Array(event.data));
      if (frame?.kind === PTY_OUTPUT) options.onOutput(frame.payload);
      else if (frame?.kind === PTY_EXIT) {
        try {
          exitCode = (JSON.parse(new TextDecoder().decode(frame.payload)) as { code: number | null }).code;
        } catch {
          exitCode = null;
        }
      }
    };
    ws.onclose = (event) => end(endNotice(exitCode, { code: event.code, reason: event.reason }));
  })();

  return {
    send(keys) {
      for (const frame of inputFrames(encoder.encode(keys))) sendFrame(frame);
    },
    resize(cols, rows) {
      if (cols === size.cols && rows === size.rows) return;
      size = { cols, rows };
      sendFrame(encodeResize(cols, rows));
    },
    close() {
      ended = true;
      clearInterval(refresh);
      socket?.close(1000, "tab closed");
    },
  };
}
