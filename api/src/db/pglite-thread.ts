/**
 * One PGlite on a thread of its own (a Bun Worker running pglite-worker.ts), so a slow statement holds that
 * thread and not the API's event loop. Clients connect to `socketPath`, which this thread splices to the
 * worker's private socket. PGlite cannot cancel a running statement (one WebAssembly thread, no signals), so a
 * CancelRequest that finds the worker not answering a ping ends it: every open connection gets SQLSTATE 57014
 * and is closed, and a new worker starts from the same data folder. What was committed stays (PostgreSQL
 * recovers from its WAL as after a crash); the statement and any open transaction of every connection are lost.
 *
 * @example
 * const db = await startPgliteThread({ dataDir, socketPath: "/tmp/x/.s.PGSQL.5432", maxConnections: 200 });
 * await db.interrupt(); // true: it was busy and was restarted
 * await db.stop();
 */
import { mkdtempSync, rmSync } from "node:fs";
import { createConnection, createServer, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { PgliteWorkerStart } from "./pglite-worker";

export type PgliteRuntime = { pgliteWasmModule: WebAssembly.Module; fsBundle: Blob };

export type PgliteThread = {
  socketPath: string;
  /** Ends a running statement by restarting the worker; false when the worker was idle (nothing to end). */
  interrupt(): Promise<boolean>;
  stop(): Promise<void>;
};

/** How long an idle worker may take to answer a ping before it is judged busy with a statement. */
const PING_MS = 500;
const STOP_MS = 5_000;
const CANCEL_REQUEST = 80877102;

const READY_FOR_QUERY = Buffer.from([0x5a, 0, 0, 0, 5, 0x49]);
const SYNC = Buffer.from([0x53, 0, 0, 0, 4]);

function errorResponse(severity: "ERROR" | "FATAL", code: string, message: string): Buffer {
  const fields = [
    ["S", severity],
    ["V", severity],
    ["C", code],
    ["M", message],
  ].map(([k, v]) => Buffer.from(`${k}${v}\0`));
  const body = Buffer.concat([...fields, Buffer.from([0])]);
  const head = Buffer.alloc(5);
  head.write("E");
  head.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([head, body]);
}

/**
 * Tells a connection whose session was ended: 57014 and ReadyForQuery, so a client waiting on a query rejects
 * it with that error. Syncs still in flight for the dead session are answered here; the first other message
 * goes, with what follows, to a fresh session of the restarted PGlite (`revive`), so a pooled connection
 * carries on. Closing it instead races postgres.js, which may have a write queued (a Sync, a ROLLBACK).
 */
function cut(client: Socket, last: Buffer, revive: (rest: Buffer) => void): void {
  const error = errorResponse(
    "ERROR",
    "57014",
    "canceling statement due to statement timeout (the database was restarted to stop it; open transactions were rolled back)",
  );
  // As PostgreSQL: ReadyForQuery follows a simple query's error, or an extended query's only once Sync is sent.
  const synced = last[0] === 0x51 /* Q */ || last.subarray(-5).equals(SYNC);
  client.write(synced ? Buffer.concat([error, READY_FOR_QUERY]) : error);
  let pending = Buffer.alloc(0);
  const onData = (chunk: Buffer) => {
    pending = Buffer.concat([pending, chunk]);
    while (pending.length >= 5 && pending.length >= pending.readInt32BE(1) + 1) {
      const type = String.fromCharCode(pending[0]!);
      if (type === "X") return void client.end();
      if (type !== "S") {
        client.off("data", onData);
        client.pause();
        return revive(pending);
      }
      client.write(READY_FOR_QUERY);
      pending = pending.subarray(pending.readInt32BE(1) + 1);
    }
  };
  client.on("data", onData);
  client.resume();
}

/** Drops a fresh session's start-up replies (up to its first ReadyForQuery), then leaves `server` paused. */
function startedUp(server: Socket): Promise<void> {
  return new Promise((resolve, reject) => {
    let pending = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      while (pending.length >= 5 && pending.length >= pending.readInt32BE(1) + 1) {
        const type = String.fromCharCode(pending[0]!);
        pending = pending.subarray(pending.readInt32BE(1) + 1);
        if (type !== "Z") continue;
        server.off("data", onData).off("close", onClose);
        server.pause();
        if (pending.length) server.unshift(pending);
        return resolve();
      }
    };
    const onClose = () => reject(new Error("PGlite closed the connection during start-up"));
    server.on("data", onData).once("close", onClose);
  });
}

/** Resolves with whether the worker posted `answer` within `ms` of being sent `message`. */
function reply(worker: Worker, message: string, answer: string, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const done = (value: boolean) => {
      clearTimeout(timer);
      worker.removeEventListener("message", onMessage);
      resolve(value);
    };
    const onMessage = (event: MessageEvent) => event.data === answer && done(true);
    const timer = setTimeout(() => done(false), ms);
    worker.addEventListener("message", onMessage);
    worker.postMessage(message);
  });
}

export async function startPgliteThread(o: {
  dataDir?: string;
  socketPath: string;
  username?: string;
  database?: string;
  maxConnections: number;
  runtime: PgliteRuntime;
}): Promise<PgliteThread> {
  const innerDir = mkdtempSync(join(tmpdir(), "pglite-thread-"));
  const innerPath = join(innerDir, ".s.PGSQL.5432");
  /** `last`: the client's latest bytes, to tell whether its request in flight had ended with Sync. */
  const links = new Set<{ client: Socket; server: Socket; cut: boolean; last: Buffer }>();
  /** Each client's first bytes (its start-up packet), replayed when its session is revived after a restart. */
  const heads = new WeakMap<Socket, Buffer>();
  let worker!: Worker;
  let ready!: Promise<void>;
  let stopped = false;
  let interrupting: Promise<boolean> | null = null;

  const boot = () => {
    rmSync(innerPath, { force: true });
    const w = new Worker(new URL("./pglite-worker.ts", import.meta.url).href);
    (w as Worker & { unref?(): void }).unref?.();
    worker = w;
    ready = new Promise<void>((resolve, reject) => {
      const onMessage = (event: MessageEvent) => {
        const data = event.data as string | { error?: string };
        if (data === "ready") resolve();
        else if (typeof data === "object" && data?.error) reject(new Error(`PGlite did not start: ${data.error}`));
        else return;
        w.removeEventListener("message", onMessage);
      };
      w.addEventListener("message", onMessage);
      w.addEventListener("error", (event) => reject(new Error(`PGlite's thread failed: ${(event as ErrorEvent).message}`)));
    });
    const start: PgliteWorkerStart = {
      start: { ...o.runtime, dataDir: o.dataDir, socketPath: innerPath, username: o.username, database: o.database, maxConnections: o.maxConnections },
    };
    w.postMessage(start);
    ready.catch(() => w.terminate());
    return ready;
  };

  /** Connects a client to the worker; `rest` set: a revived connection (start-up replayed, its replies dropped). */
  const splice = async (client: Socket, head: Buffer, rest?: Buffer) => {
    try {
      await ready;
    } catch {
      client.destroy();
      return;
    }
    if (client.destroyed) return;
    const server = createConnection(innerPath);
    const link = { client, server, cut: false, last: rest ?? head };
    client.on("data", (chunk: Buffer) => void (link.last = chunk));
    links.add(link);
    server.setNoDelay?.(true);
    client.setNoDelay?.(true);
    const end = () => {
      links.delete(link);
      if (!link.cut) client.destroy();
      server.destroy();
    };
    server.once("close", end).on("error", () => {});
    client.once("close", end);
    if (rest) {
      server.write(head.subarray(0, head.readInt32BE(0)));
      if (
        !(await startedUp(server).then(
          () => true,
          () => false,
        )) ||
        link.cut
      )
        return;
      server.write(rest);
    } else server.write(head);
    client.pipe(server);
    server.pipe(client);
  };

  const interrupt = () =>
    (interrupting ??= (async () => {
      try {
        if (
          stopped ||
          !(await ready.then(
            () => true,
            () => false,
          ))
        )
          return false;
        if (await reply(worker, "ping", "pong", PING_MS)) return false;
        worker.terminate();
        for (const link of links) {
          link.cut = true;
          link.server.unpipe(link.client);
          link.client.unpipe(link.server);
          link.server.destroy();
          const { client } = link;
          client.removeAllListeners("close").removeAllListeners("data");
          cut(client, link.last, (rest) => void splice(client, heads.get(client)!, rest));
        }
        links.clear();
        await boot().catch(() => {});
        return true;
      } finally {
        interrupting = null;
      }
    })());

  const front = createServer((client) => {
    let head = Buffer.alloc(0);
    client.on("error", () => {});
    const onData = (chunk: Buffer) => {
      head = Buffer.concat([head, chunk]);
      if (head.length < 8) return;
      client.off("data", onData);
      client.pause();
      // A CancelRequest carries no session: with one PGlite session per thread, it means "stop what runs".
      if (head.length >= 16 && head.readInt32BE(0) === 16 && head.readInt32BE(4) === CANCEL_REQUEST) {
        void interrupt().finally(() => client.end());
        return;
      }
      heads.set(client, head);
      void splice(client, head);
    };
    client.on("data", onData);
  });

  try {
    await boot();
    rmSync(o.socketPath, { force: true });
    await new Promise<void>((resolve, reject) => front.once("error", reject).listen(o.socketPath, () => resolve()));
  } catch (error) {
    worker.terminate();
    front.close();
    rmSync(innerDir, { recursive: true, force: true });
    throw error;
  }

  return {
    socketPath: o.socketPath,
    interrupt,
    async stop() {
      if (stopped) return;
      stopped = true;
      await new Promise<void>((resolve) => front.close(() => resolve()));
      for (const link of links) link.client.destroy(), link.server.destroy();
      links.clear();
      await interrupting?.catch(() => false);
      // A clean close (a checkpoint) when the worker is free; a busy one is ended, and recovers at next start.
      if (
        await ready.then(
          () => true,
          () => false,
        )
      )
        await reply(worker, "stop", "stopped", STOP_MS);
      worker.terminate();
      rmSync(innerDir, { recursive: true, force: true });
      rmSync(o.socketPath, { force: true });
    },
  };
}
