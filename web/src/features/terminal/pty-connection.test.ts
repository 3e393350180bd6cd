/**
 * The browser's terminal connection against a real WebSocket server speaking the PTY frames: the token in
 * the subprotocol list, keys before the socket opened, large pastes split under 64 KB, resizes, output
 * bytes, the exit notice, and what is printed for each way a session ends.
 */
import { afterAll, expect, test } from "bun:test";
import {
  decodePtyFrame,
  decodeResize,
  encodePtyFrame,
  MAX_PTY_MESSAGE_BYTES,
  PTY_CLOSE,
  PTY_EXIT,
  PTY_INPUT,
  PTY_OUTPUT,
  PTY_PROTOCOL,
  PTY_RESIZE,
} from "@shared/events/pty-frames";
import type { ServerWebSocket } from "bun";
import { endNotice, openPtyConnection } from "./pty-connection";

type Seen = { protocols: string; path: string; frames: { kind: number; payload: Uint8Array }[]; ws?: ServerWebSocket<Seen> };
const seen: Seen[] = [];
const server = Bun.serve<Seen>({
  port: 0,
  hostname: "127.0.0.1",
  fetch(req, srv) {
    const entry: Seen = { protocols: req.headers.get("sec-websocket-protocol") ?? "", path: new URL(req.url).pathname + new URL(req.url).search, frames: [] };
    seen.push(entry);
    return srv.upgrade(req, { data: entry, headers: { "Sec-WebSocket-Protocol": PTY_PROTOCOL } }) ? undefined : new Response("no", { status: 400 });
  },
  websocket: {
    open(ws) {
      ws.data.ws = ws;
    },
    message(ws, raw) {
      const frame = decodePtyFrame(new Uint8Array(raw as Buffer));
      if (frame) ws.data.frames.push({ kind: frame.kind, payload: frame.payload.slice() });
    },
  },
});
afterAll(() => server.stop(true));

async function until<T>(fn: () => T | undefined | false, ms = 3000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = fn();
    if (value) return value;
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await Bun.sleep(10);
  }
}

function connect(token: string | null = "tok-1") {
  const output: Uint8Array[] = [];
  const ended: string[] = [];
  const conn = openPtyConnection({
    projectId: "p1",
    cols: 90,
    rows: 30,
    onOutput: (b) => output.push(b.slice()),
    onEnd: (n) => ended.push(n),
    getToken: async () => token,
    url: (id, size) => `ws://127.0.0.1:${server.port}/api/sandbox/${id}/pty?cols=${size.cols}&rows=${size.rows}`,
  });
  return { conn, output, ended };
}

test("connects with [protocol, token] and the size, sends keys typed before it opened, splits pastes, resizes", async () => {
  const before = seen.length;
  const { conn } = connect();
  conn.send("ls\r"); // typed before the socket opened
  const entry = await until(() => seen[before]?.ws && seen[before]);
  expect(entry.protocols).toBe(`${PTY_PROTOCOL}, tok-1`);
  expect(entry.path).toBe("/api/sandbox/p1/pty?cols=90&rows=30");
  conn.send("é");
  conn.send("x".repeat(MAX_PTY_MESSAGE_BYTES * 2));
  conn.resize(90, 30); // unchanged: not sent
  conn.resize(120, 40);
  await until(() => entry.frames.length >= 6);
  const inputs = entry.frames.filter((f) => f.kind === PTY_INPUT);
  expect(new TextDecoder().decode(inputs[0]!.payload)).toBe("ls\r");
  expect([...inputs[1]!.payload]).toEqual([0xc3, 0xa9]);
  expect(inputs.slice(2).every((f) => f.payload.length + 1 <= MAX_PTY_MESSAGE_BYTES)).toBe(true);
  expect(inputs.slice(2).reduce((n, f) => n + f.payload.length, 0)).toBe(MAX_PTY_MESSAGE_BYTES * 2);
  const resizes = entry.frames.filter((f) => f.kind === PTY_RESIZE);
  expect(resizes.map((f) => decodeResize(f.payload))).toEqual([{ cols: 120, rows: 40 }]);
  conn.close();
});

test("output arrives as bytes; the exit status and the close give one notice", async () => {
  const before = seen.length;
  const { output, ended } = connect();
  const entry = await until(() => seen[before]?.ws && seen[before]);
  entry.ws!.send(encodePtyFrame(PTY_OUTPUT, new Uint8Array([0x68, 0x69, 0xe2])));
  entry.ws!.send(encodePtyFrame(PTY_EXIT, new TextEncoder().encode(JSON.stringify({ code: 3 }))));
  entry.ws!.close(1000, "the shell ended");
  await until(() => ended.length === 1);
  expect(output.map((b) => [...b])).toEqual([[0x68, 0x69, 0xe2]]);
  expect(ended[0]).toContain("Shell exited with code 3. Press Enter to start a new session.");
});

test("signed out: nothing is opened and the notice says to sign in", async () => {
  const before = seen.length;
  const { ended } = connect(null);
  await until(() => ended.length === 1);
  expect(ended[0]).toContain("Signed out");
  expect(seen.length).toBe(before);
});

test("each way a session can end reads plainly", () => {
  expect(endNotice(undefined, { code: PTY_CLOSE.idle, reason: "closed after 900 s without input or output" })).toContain(
    "Session closed after 900 s without input or output. Press Enter",
  );
  expect(endNotice(undefined, { code: PTY_CLOSE.tooMany, reason: "At most 8 terminals may be open for one project; close one first." })).toContain(
    "At most 8 terminals",
  );
  expect(endNotice(undefined, { code: 1009, reason: "a message may be at most 65536 bytes" })).toContain("a message may be at most 65536 bytes");
  expect(endNotice(null, { code: 1000, reason: "" })).toContain("Shell exited.");
  expect(endNotice(undefined, { code: 1006, reason: "" })).toContain("Disconnected.");
});
