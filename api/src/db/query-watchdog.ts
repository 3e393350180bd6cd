/**
 * A bounded wait per query. postgres.js only has a connect time-out: when the server keeps its TCP
 * connections open but stops answering (a partition, a stalled server) every query waits forever, and every
 * route with it. This hands postgres.js its sockets and watches the wire: while a reply is owed (a Query or
 * Sync sent and its ReadyForQuery not yet back, or a Flush sent and nothing back yet) and no byte has moved
 * either way for `timeoutMs()`, the socket is destroyed. postgres.js then fails that connection's queries
 * with `QUERY_TIMEOUT` (turned into a 503 naming the database) and opens a fresh connection for the next
 * query, so the app recovers on its own.
 *
 * Idle connections and LISTEN connections owe no reply, so they are never cut. With TLS the messages cannot
 * be read on the TCP socket, so this sets up TLS itself (start-tls.ts) and watches the decrypted stream;
 * postgres.js must then be told `ssl: false`, as createSql does.
 *
 * @example
 * postgres(url, { ssl: false, socket: watchedSocket(() => 5000, "require") });
 */
import net from "node:net";
import { Duplex } from "node:stream";

import { QUERY_TIMEOUT } from "../lib/classify-error";
import { startTls, type SslSetting } from "./start-tls";

export { QUERY_TIMEOUT };

// Frontend messages that the server answers with ReadyForQuery ('Z'): simple Query and Sync.
const QUERY = 0x51;
const SYNC = 0x53;
const READY_FOR_QUERY = 0x5a;
// Flush: answered by whatever the server has pending, with no ReadyForQuery. postgres.js sends Parse,
// Describe, Flush to learn a new statement's parameter types, and only binds (and Syncs) once that is back.
const FLUSH = 0x48;
// Backend messages the server may send at any time, which answer nothing.
const UNSOLICITED = new Set([0x41, 0x4e, 0x53]); // NotificationResponse, NoticeResponse, ParameterStatus
const SSL_REQUEST_CODE = 80877103;
const CANCEL_REQUEST_CODE = 80877102;

// What postgres.js passes to the `socket` option: its parsed settings (connect_timeout in seconds).
type SocketOptions = { host: string[]; port: number[]; path?: string; connect_timeout?: number };

/**
 * How many of a client's connections are open and how many owe a reply (a query under way): postgres.js
 * shows no pool figures, but every socket passes through here. Read by /metrics.
 */
export type PoolStats = { open: number; busy: number };

/** `ssl` is the connection's TLS setting (as postgres.js reads `sslmode`); false = a plain connection. */
export function watchedSocket(timeoutMs: () => number, ssl: SslSetting = false, stats: PoolStats = { open: 0, busy: 0 }) {
  return (options: SocketOptions): net.Socket | Promise<net.Socket> => {
    const host = options.host[0]!;
    const raw = options.path ? net.connect(options.path) : net.connect(options.port[0]!, host);
    if (!ssl || options.path) {
      watch(raw, timeoutMs, stats);
      return raw;
    }
    // The SSLRequest is owed an answer like any query: bounded by the query bound too, not only the connect one.
    const connectMs = (options.connect_timeout ?? 30) * 1000;
    const queryMs = timeoutMs();
    return startTls(raw, ssl, { host, timeoutMs: queryMs > 0 ? Math.min(queryMs, connectMs) : connectMs }).then(
      (socket) => (watch(socket, timeoutMs, stats), socket),
      failedSocket,
    );
  };
}

/**
 * A socket that reports `error` as soon as postgres.js listens. A rejected promise would instead leave that
 * pool connection "connecting" for good, and every later query waiting on it (seen with postgres.js 3.4).
 */
function failedSocket(error: Error): net.Socket {
  const socket = new Duplex({ read() {}, write: (_chunk, _encoding, done) => done() });
  // After the microtasks in which postgres.js attaches its listeners; 'error' then 'close' at once, as below.
  setTimeout(() => {
    socket.emit("error", error);
    socket.emit("close", true);
  }, 0);
  return socket as unknown as net.Socket;
}

/** Splits a byte stream into protocol messages (type byte, then a length that counts itself). */
class MessageReader {
  private header = new Uint8Array(8);
  private have = 0;
  private skip = 0;
  constructor(
    private typed: boolean,
    private onMessage: (type: number, firstBytes: Uint8Array) => void,
  ) {}
  /** The start-up message (and SSL/cancel requests) has no type byte; everything after it does. */
  expectTyped() {
    this.typed = true;
  }
  feed(chunk: Uint8Array) {
    for (let i = 0; i < chunk.length; ) {
      if (this.skip > 0) {
        const n = Math.min(this.skip, chunk.length - i);
        this.skip -= n;
        i += n;
        continue;
      }
      const headerLength = this.typed ? 5 : 8;
      while (this.have < headerLength && i < chunk.length) this.header[this.have++] = chunk[i++]!;
      if (this.have < headerLength) return;
      const view = new DataView(this.header.buffer, 0, headerLength);
      const length = view.getInt32(this.typed ? 1 : 0);
      this.skip = Math.max(0, length - (headerLength - (this.typed ? 1 : 0)));
      this.have = 0;
      this.onMessage(this.typed ? this.header[0]! : 0, this.header.slice(0, headerLength));
    }
  }
}

function watch(socket: net.Socket, timeoutMs: () => number, stats: PoolStats) {
  // What the server owes, in order: a ReadyForQuery, or (after a Flush) any answer at all.
  const owed: ("ready" | "answer")[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  let watching = true;
  let busy = false;
  stats.open++;
  const setBusy = (now: boolean) => {
    if (now !== busy) stats.busy += now ? 1 : -1;
    busy = now;
  };

  const stop = () => {
    watching = false;
    clearTimeout(timer);
    setBusy(false);
  };
  const rearm = () => {
    setBusy(watching && owed.length > 0);
    clearTimeout(timer);
    timer = undefined;
    if (!watching || owed.length === 0) return;
    const ms = timeoutMs();
    if (ms <= 0) return;
    timer = setTimeout(() => {
      const error = Object.assign(new Error(`the database did not answer within ${Math.round(ms / 100) / 10} s`), { code: QUERY_TIMEOUT });
      stop();
      // 'error' then 'close' at once, not on a later tick as destroy(error) would: postgres.js must see the
      // connection closed before the rejected queries' handlers run, or a query sent in between leaves a write
      // scheduled on the dead socket and the connection never writes again (seen with postgres.js 3.4).
      socket.destroy();
      socket.emit("error", error);
      socket.emit("close", true);
    }, ms);
  };

  const outgoing = new MessageReader(false, (type, first) => {
    if (type === 0) {
      const code = new DataView(first.buffer).getInt32(4);
      // TLS follows an SSL request (when postgres.js secures the socket itself): the rest cannot be read.
      if (code === SSL_REQUEST_CODE) return stop();
      if (code === CANCEL_REQUEST_CODE) return;
      owed.push("ready"); // the start-up message: answered by ReadyForQuery once signed in
      outgoing.expectTyped();
      return;
    }
    if (type === QUERY || type === SYNC) owed.push("ready");
    else if (type === FLUSH) owed.push("answer");
  });
  const incoming = new MessageReader(true, (type) => {
    if (owed[0] === "ready" ? type === READY_FOR_QUERY : owed[0] === "answer" && !UNSOLICITED.has(type)) owed.shift();
  });

  const write = socket.write.bind(socket) as (...args: unknown[]) => boolean;
  socket.write = ((chunk: unknown, ...rest: unknown[]) => {
    if (watching && chunk instanceof Uint8Array) {
      outgoing.feed(chunk);
      rearm();
    }
    return write(chunk, ...rest);
  }) as typeof socket.write;
  socket.on("data", (chunk: Uint8Array) => {
    if (!watching) return;
    incoming.feed(chunk);
    rearm();
  });
  socket.once("close", () => {
    stop();
    stats.open--;
  });
}
