/**
 * The local sandbox's interactive terminal: `pty-helper.py` (bound into every sandbox) runs bash on a
 * pseudo-terminal and speaks a small framed protocol over its stdin and stdout, carried by the supervisor as
 * a raw command. This file turns that into a `TerminalSession`.
 *
 * @example
 * const session = openLocalTerminal(supervisor, { cwd, env, cols: 80, rows: 24, onData, onExit });
 * session.write(new TextEncoder().encode("ls\r"));
 */
import type { TerminalOptions, TerminalSession } from "../types.ts";
import type { Supervisor } from "./supervisor-client.ts";

export const PTY_HELPER_IN_SANDBOX = "/opt/sandbox/pty-helper.py";

/** Frame kinds, host → helper. */
const INPUT = 0;
const RESIZE = 1;
/** Frame kinds, helper → host. */
const OUTPUT = 0;
const SHELL_EXIT = 1;
/** A frame from the helper larger than this is a protocol error: the session ends. */
const MAX_FRAME = 1024 * 1024;

export function frame(kind: number, payload: Uint8Array): Uint8Array {
  const out = new Uint8Array(5 + payload.length);
  const view = new DataView(out.buffer);
  view.setUint8(0, kind);
  view.setUint32(1, payload.length);
  out.set(payload, 5);
  return out;
}

/** Terminal sizes the kernel accepts (unsigned 16 bits), at least 1. */
export const clampSize = (n: number) => Math.min(65535, Math.max(1, Math.floor(Number.isFinite(n) ? n : 1)));

/** Splits the helper's stdout into frames, across chunk boundaries. */
export function createFrameReader(onFrame: (kind: number, payload: Uint8Array) => void, onError: (why: string) => void) {
  let buffered = new Uint8Array(0);
  return (chunk: Uint8Array) => {
    const joined = new Uint8Array(buffered.length + chunk.length);
    joined.set(buffered);
    joined.set(chunk, buffered.length);
    let at = 0;
    while (joined.length - at >= 5) {
      const view = new DataView(joined.buffer, joined.byteOffset + at);
      const kind = view.getUint8(0);
      const length = view.getUint32(1);
      if (length > MAX_FRAME) return onError(`frame of ${length} bytes`);
      if (joined.length - at - 5 < length) break;
      onFrame(kind, joined.subarray(at + 5, at + 5 + length));
      at += 5 + length;
    }
    buffered = joined.slice(at);
  };
}

export function openLocalTerminal(
  supervisor: Pick<Supervisor, "runRaw">,
  options: TerminalOptions & { cwd: string; env: Record<string, string> },
): TerminalSession {
  let exited = false;
  const exit = (code: number | null) => {
    if (exited) return;
    exited = true;
    options.onExit(code);
  };
  const read = createFrameReader(
    (kind, payload) => {
      if (kind === OUTPUT) options.onData(payload);
      else if (kind === SHELL_EXIT) exit(Number(new TextDecoder().decode(payload)) || 0);
    },
    () => {
      exit(null);
      command.kill();
    },
  );
  const command = supervisor.runRaw(`exec /usr/bin/python3 -I ${PTY_HELPER_IN_SANDBOX} ${clampSize(options.cols)} ${clampSize(options.rows)}`, {
    cwd: options.cwd,
    env: options.env,
    onStdout: read,
    // The helper's own complaints (a missing python3, say) are shown where the user looks: in the terminal.
    onStderr: (text) => options.onData(new TextEncoder().encode(text.replace(/\r?\n/g, "\r\n"))),
    // The helper outlives the shell while background jobs run; its own exit only matters if the shell's
    // was never reported (it could not start, or the sandbox stopped).
    onExit: (code) => exit(code === 0 ? null : code),
  });
  return {
    write(data) {
      if (!exited && data.length) command.write(frame(INPUT, data));
    },
    resize(cols, rows) {
      if (exited) return;
      const payload = new Uint8Array(4);
      new DataView(payload.buffer).setUint16(0, clampSize(rows));
      new DataView(payload.buffer).setUint16(2, clampSize(cols));
      command.write(frame(RESIZE, payload));
    },
    close() {
      command.end();
    },
  };
}
