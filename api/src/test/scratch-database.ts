/**
 * A throw-away database standing in for a project's own: a fresh database on the PostgreSQL of
 * TEST_DATABASE_URL, or a fresh in-memory embedded PGlite when it is unset. Dropped or stopped by `close`.
 */
import postgres from "postgres";
import type { Sql } from "../db/client";
import { startEmbeddedPostgres } from "../db/embedded";

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
  const embedded = await startEmbeddedPostgres({ maxConnections: 4 });
  const sql = postgres({ path: embedded.socketPath, database: "postgres", username: "postgres", max: 1, onnotice: () => {} }) as unknown as Sql;
  return {
    sql,
    label: "PGlite",
    url: null,
    close: async () => {
      await sql.end();
      await embedded.stop();
    },
  };
}
