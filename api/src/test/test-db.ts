/**
 * The database for tests: a fresh database on the real PostgreSQL named by TEST_DATABASE_URL, or an
 * in-memory embedded PGlite when it is unset. One per test process, migrated once; tests keep apart by
 * using their own users and projects.
 */
import postgres from "postgres";
import type { Db, Sql } from "../db/client";
import { startEmbeddedPostgres } from "../db/embedded";
import { migrate } from "../db/migrate";

/** `target` says where the server listens, so tests can put a proxy in between and cut it. */
export type TestDb = Omit<Db, "setQueryTimeout" | "pool"> & { label: string; target: { hostname: string; port: number; database: string } | { unix: string } };

let shared: Promise<TestDb> | null = null;

export function testDb(): Promise<TestDb> {
  shared ??= open();
  return shared;
}

async function open(): Promise<TestDb> {
  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    const name = `app_test_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
    const admin = postgres(url, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database ${name}`);
    await admin.end();
    const target = new URL(url);
    target.pathname = `/${name}`;
    const sql = postgres(target.toString(), { max: 10, onnotice: () => {}, transform: { undefined: null } }) as unknown as Sql;
    await migrate(sql);
    return {
      sql,
      kind: "postgres",
      label: "PostgreSQL",
      target: { hostname: target.hostname, port: Number(target.port || 5432), database: name },
      close: async () => {
        await sql.end();
        const drop = postgres(url, { max: 1, onnotice: () => {} });
        await drop.unsafe(`drop database if exists ${name} with (force)`).catch(() => {});
        await drop.end();
      },
    };
  }
  const embedded = await startEmbeddedPostgres({ maxConnections: 4 });
  // One connection, as in the app's embedded mode (PGlite is a single session).
  const sql = postgres({
    path: embedded.socketPath,
    database: "postgres",
    username: "postgres",
    max: 1,
    onnotice: () => {},
    transform: { undefined: null },
  }) as unknown as Sql;
  await migrate(sql, { lock: false });
  return {
    sql,
    kind: "embedded",
    label: "PGlite",
    target: { unix: embedded.socketPath },
    close: async () => {
      await sql.end();
      await embedded.stop();
    },
  };
}
