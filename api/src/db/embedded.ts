/**
 * Embedded PostgreSQL for zero-configuration runs and tests: PGlite (Postgres compiled to WASM) served on
 * a Unix socket so postgres.js can talk to it like to any server. `dataDir` undefined means in-memory.
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";
import { makePrivate, privateDir } from "../lib/private-files";
import { createSql } from "./client";
import { startPgliteThread, type PgliteRuntime, type PgliteThread } from "./pglite-thread";

export type EmbeddedPostgres = { socketPath: string; stop(): Promise<void> };

export async function startEmbeddedPostgres(options: { dataDir?: string; maxConnections: number }): Promise<EmbeddedPostgres> {
  // The database holds every user's data and the image-signing secret: only the app's user may reach it.
  if (options.dataDir) privateDir(options.dataDir);
  const db = await PGlite.create(options.dataDir);
  if (options.dataDir) makePrivate(options.dataDir);
  // postgres.js connects to `<path>`; keep the socket out of DATA_DIR, whose path may exceed the 108-byte limit.
  const socketDir = join(tmpdir(), `pglite-${process.pid}-${crypto.randomUUID().slice(0, 8)}`);
  mkdirSync(socketDir, { recursive: true, mode: 0o700 });
  const socketPath = join(socketDir, ".s.PGSQL.5432");
  // maxConnections must exceed the postgres.js pool, or queries stall.
  const server = new PGLiteSocketServer({ db, path: socketPath, maxConnections: options.maxConnections });
  await server.start();
  return {
    socketPath,
    stop: async () => {
      await server.stop();
      await db.close();
      if (options.dataDir) makePrivate(options.dataDir);
      rmSync(socketDir, { recursive: true, force: true });
    },
  };
}

let runtime: Promise<PgliteRuntime> | null = null;

/** PGlite's compiled program and file bundle, loaded once per process and shared by every project database. */
export function pgliteRuntime(): Promise<PgliteRuntime> {
  runtime ??= (async () => {
    const dist = new URL(".", import.meta.resolve("@electric-sql/pglite"));
    const [wasm, data] = await Promise.all([Bun.file(new URL("pglite.wasm", dist)).arrayBuffer(), Bun.file(new URL("pglite.data", dist)).arrayBuffer()]);
    return { pgliteWasmModule: await WebAssembly.compile(wasm), fsBundle: new Blob([data]) };
  })();
  runtime.catch(() => (runtime = null));
  return runtime;
}

/**
 * Makes a fresh PGlite data folder (initdb, seconds) and runs `setup` in it as the bootstrap superuser; project
 * databases are copies of it, so only the first one pays for initdb. Both run on a PGlite thread of their own
 * (pglite-thread.ts): seconds of WebAssembly on the API's event loop would stall every request meanwhile.
 */
export async function createPgliteTemplate(dataDir: string, setup: string[]): Promise<void> {
  const socketDir = mkdtempSync(join(tmpdir(), "pglite-template-"));
  const thread = await startPgliteThread({ dataDir, socketPath: join(socketDir, ".s.PGSQL.5432"), maxConnections: 2, runtime: await pgliteRuntime() });
  // No query time-out: CREATE DATABASE on a loaded machine can take a while, and nothing waits on it but this.
  const sql = createSql({ path: thread.socketPath, username: "postgres", database: "postgres" }, { max: 1, queryTimeoutMs: () => 0 });
  try {
    // One by one: several statements in one exec share a transaction, which CREATE DATABASE refuses.
    for (const statement of setup) await sql.unsafe(statement);
  } finally {
    await sql.end().catch(() => {});
    await thread.stop();
    rmSync(socketDir, { recursive: true, force: true });
  }
}

/**
 * Opens PGlite on `dataDir` and serves it on `socketPath`; called on a PGlite thread (pglite-worker.ts), which
 * is handed the runtime compiled once in the main thread.
 */
export async function servePglite(o: { dataDir?: string; socketPath: string; username?: string; database?: string; maxConnections: number } & PgliteRuntime) {
  const db = await PGlite.create(o.dataDir, { pgliteWasmModule: o.pgliteWasmModule, fsBundle: o.fsBundle, username: o.username, database: o.database });
  const server = new PGLiteSocketServer({ db, path: o.socketPath, maxConnections: o.maxConnections });
  try {
    await server.start();
  } catch (error) {
    await db.close();
    throw error;
  }
  return {
    stop: async () => {
      await server.stop();
      await db.close();
    },
  };
}

/**
 * One project's PGlite on a thread of its own (pglite-thread.ts), its session running as `username` in
 * `database`, served on `socketPath` (whose folder the caller keeps private). pglite-socket queues the queries
 * of its connections onto PGlite's one session and keeps a transaction's queries together, so several clients
 * may share it. `interrupt()` ends a running statement by restarting the thread from the data folder.
 */
export async function startProjectPglite(o: {
  dataDir: string;
  socketPath: string;
  username: string;
  database: string;
  maxConnections: number;
}): Promise<PgliteThread> {
  return startPgliteThread({ ...o, runtime: await pgliteRuntime() });
}
