/**
 * The interactive terminal's WebSocket (`GET /api/sandbox/{projectId}/pty?cols=80&rows=24`). Binary
 * messages whose first byte says what the rest is, so terminal bytes travel as they are (no UTF-8 or JSON
 * round trip: a program may print half a character, or raw bytes).
 *
 * Client → server: INPUT bytes (keys as xterm sends them; Ctrl+C is 0x03) | RESIZE cols, rows (u16 each,
 * big-endian) | TOKEN a refreshed ID token (UTF-8), sent before the one the socket was opened with expires.
 * Server → client: OUTPUT bytes | EXIT the shell's exit status (UTF-8 JSON `{"code": 0}`, code null when
 * it was killed or the sandbox stopped), after which the server closes the socket.
 *
 * @example
 * ws.send(encodePtyFrame(PTY_INPUT, new TextEncoder().encode("ls\r")));
 * const { kind, payload } = decodePtyFrame(new Uint8Array(event.data));
 */

/** Subprotocol list: `[PTY_PROTOCOL, <ID token>]` (a browser cannot set headers on a WebSocket). */
export const PTY_PROTOCOL = "app-builder.pty.v1";

/** The largest message either side may send; a bigger one closes the socket (1009). Clients split pastes. */
export const MAX_PTY_MESSAGE_BYTES = 64 * 1024;
/** Most terminals one project may have open at once (on one server). */
export const MAX_TERMINALS_PER_PROJECT = 8;

export const PTY_INPUT = 0;
export const PTY_RESIZE = 1;
export const PTY_TOKEN = 2;
export const PTY_OUTPUT = 0;
export const PTY_EXIT = 1;

/** Close codes beyond the standard ones (1000 shell ended, 1009 message too big, 1011 server trouble). */
export const PTY_CLOSE = {
  tokenExpired: 4401,
  /** The person may no longer use the project's terminal (made a viewer). */
  forbidden: 4403,
  notFound: 4404,
  idle: 4408,
  tooMany: 4409,
  /** The sandbox could not start, or its terminal could not open (the reason says why). */
  unavailable: 4503,
} as const;

export function encodePtyFrame(kind: number, payload: Uint8Array = new Uint8Array(0)): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(1 + payload.length);
  out[0] = kind;
  out.set(payload, 1);
  return out;
}

export function decodePtyFrame(message: Uint8Array): { kind: number; payload: Uint8Array } | null {
  if (message.length < 1) return null;
  return { kind: message[0]!, payload: message.subarray(1) };
}

export function encodeResize(cols: number, rows: number): Uint8Array<ArrayBuffer> {
  const payload = new Uint8Array(4);
  const view = new DataView(payload.buffer);
  view.setUint16(0, clampTerminalSize(cols));
  view.setUint16(2, clampTerminalSize(rows));
  return encodePtyFrame(PTY_RESIZE, payload);
}

export function decodeResize(payload: Uint8Array): { cols: number; rows: number } | null {
  if (payload.length !== 4) return null;
  const view = new DataView(payload.buffer, payload.byteOffset, 4);
  return { cols: clampTerminalSize(view.getUint16(0)), rows: clampTerminalSize(view.getUint16(2)) };
}

/** Sizes a terminal can have: whole, 1 to 1000 cells (a larger window is no real screen). */
export function clampTerminalSize(n: number): number {
  return Math.min(1000, Math.max(1, Math.floor(Number.isFinite(n) ? n : 1)));
}

/** Input split into messages that each fit under MAX_PTY_MESSAGE_BYTES (a large paste). */
export function inputFrames(bytes: Uint8Array): Uint8Array<ArrayBuffer>[] {
  const room = MAX_PTY_MESSAGE_BYTES - 1;
  const frames: Uint8Array<ArrayBuffer>[] = [];
  for (let at = 0; at < bytes.length; at += room) frames.push(encodePtyFrame(PTY_INPUT, bytes.subarray(at, at + room)));
  return frames;
}
