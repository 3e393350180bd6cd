/**
 * A test client for the interactive terminal's WebSocket (`/api/sandbox/{id}/pty`): sends keys and resizes
 * as the browser does, collects the output as text, and reports how the socket closed.
 *
 * @example
 * const term = await connectPty(`ws://127.0.0.1:${port}`, projectId, token);
 * term.type("python3\r");
 * await term.waitFor(/>>> $/);
 */
import { decodePtyFrame, encodePtyFrame, encodeResize, PTY_EXIT, PTY_INPUT, PTY_OUTPUT, PTY_PROTOCOL, PTY_TOKEN } from "@shared/events/pty-frames";

export type PtyClient = {
  ws: WebSocket;
  text(): string;
  clear(): void;
  type(keys: string): void;
  resize(cols: number, rows: number): void;
  sendToken(token: string): void;
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<void>;
  /** The exit status the server reported, if it did. */
  exitCode(): number | null | undefined;
  closed: Promise<{ code: number; reason: string }>;
  /** Called with each output chunk as it arrives (benchmarks time echoes with it). */
  onOutput?: (bytes: Uint8Array) => void;
};

export async function connectPty(base: string, projectId: string, token: string, size = { cols: 80, rows: 24 }): Promise<PtyClient> {
  const ws = new WebSocket(`${base}/api/sandbox/${projectId}/pty?cols=${size.cols}&rows=${size.rows}`, [PTY_PROTOCOL, token]);
  ws.binaryType = "arraybuffer";
  let out = "";
  let exit: number | null | undefined;
  const decoder = new TextDecoder();
  const client: PtyClient = {
    ws,
    text: () => out,
    clear: () => void (out = ""),
    type: (keys) => ws.send(encodePtyFrame(PTY_INPUT, new TextEncoder().encode(keys))),
    resize: (cols, rows) => ws.send(encodeResize(cols, rows)),
    sendToken: (fresh) => ws.send(encodePtyFrame(PTY_TOKEN, new TextEncoder().encode(fresh))),
    async waitFor(pattern, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      while (!pattern.test(out)) {
        if (Date.now() > deadline) throw new Error(`terminal never showed ${pattern}; it shows ${JSON.stringify(out.slice(-400))}`);
        await Bun.sleep(20);
      }
    },
    exitCode: () => exit,
    closed: new Promise((resolve) => ws.addEventListener("close", (e) => resolve({ code: e.code, reason: e.reason }))),
  };
  ws.addEventListener("message", (e) => {
    const frame = decodePtyFrame(new Uint8Array(e.data as ArrayBuffer));
    if (frame?.kind === PTY_OUTPUT) {
      client.onOutput?.(frame.payload);
      out += decoder.decode(frame.payload, { stream: true });
    } else if (frame?.kind === PTY_EXIT) exit = (JSON.parse(decoder.decode(frame.payload)) as { code: number | null }).code;
  });
  await new Promise((resolve, reject) => {
    ws.addEventListener("open", resolve, { once: true });
    ws.addEventListener("error", () => reject(new Error("the terminal socket did not open")), { once: true });
  });
  return client;
}
