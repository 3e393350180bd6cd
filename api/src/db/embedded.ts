/**
 * Embedded PostgreSQL for zero-configuration runs and tests: PGlite (Postgres compiled to WASM) served on
 * a Unix socket so postgres.js can talk to it like to any server. `dataDir` undefined means in-memory.
 */
import { mkdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";
import { makePrivate, privateDir } from "../lib/private-files";

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
