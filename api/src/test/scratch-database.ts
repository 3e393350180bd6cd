/**
 * A throw-away database standing in for a project's own: a fresh database on the PostgreSQL of
 * TEST_DATABASE_URL, or, when it is unset, a fresh PGlite in a temp folder on a thread of its own, as project
 * databases run (so a statement past the time limit is ended the same way). Dropped or stopped by `close`.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import type { Sql } from "../db/client";
import { pgliteRuntime } from "../db/embedded";
import { startPgliteThread } from "../db/pglite-thread";

export type ScratchDatabase = { sql: Sql; label: string; url: string | null; close(): Promise<void> };

export async function scratchDatabase(): Promise<ScratchDatabase> {
  const base = process.env.TEST_DATABASE_URL;
  if (base) {
    const name = `scratch_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
    const admin = postgres(base, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database ${name}`);
    const target = new URL(base);
    target.pathname = `/${name}`;
    const sql = postgres(target.toString(), { max: 4, onnotice: () => {} }) as unknown as Sql;
    return {
      sql,
      label: "PostgreSQL",
      url: target.toString(),
      close: async () => {
        await sql.end();
        await admin.unsafe(`drop database if exists ${name} with (force)`);
        await admin.end();
      },
    };
  }
  const dir = mkdtempSync(join(tmpdir(), "scratch-pglite-"));
  const embedded = await startPgliteThread({
    dataDir: join(dir, "data"),
    socketPath: join(dir, ".s.PGSQL.5432"),
    maxConnections: 4,
    runtime: await pgliteRuntime(),
  });
  const sql = postgres({ path: embedded.socketPath, database: "postgres", username: "postgres", max: 1, onnotice: () => {} }) as unknown as Sql;
  return {
    sql,
    label: "PGlite",
    url: null,
    close: async () => {
      await sql.end();
      await embedded.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
