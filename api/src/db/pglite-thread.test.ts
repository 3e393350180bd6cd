/**
 * PGlite on its own thread: a slow statement leaves this thread's event loop free, and a cancel request ends it
 * by restarting the thread from its data folder, keeping what was committed and answering 57014.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import { pgliteRuntime } from "./embedded";
import { startPgliteThread, type PgliteThread } from "./pglite-thread";

let dir: string;
let db: PgliteThread;
let sql: postgres.Sql;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "pglite-thread-test-"));
  db = await startPgliteThread({ dataDir: join(dir, "data"), socketPath: join(dir, ".s.PGSQL.5432"), maxConnections: 8, runtime: await pgliteRuntime() });
  sql = postgres({ path: db.socketPath, database: "postgres", username: "postgres", max: 2, onnotice: () => {} });
}, 180_000);
afterAll(async () => {
  await sql?.end({ timeout: 2 });
  await db?.stop();
  rmSync(dir, { recursive: true, force: true });
});

test("while a statement sleeps, this thread's timers still run on time", async () => {
  const sleeping = sql`select pg_sleep(3)`.then(() => performance.now());
  await Bun.sleep(300);
  const started = performance.now();
  await Bun.sleep(50);
  const woke = performance.now();
  expect(woke - started).toBeLessThan(500);
  expect(await sleeping).toBeGreaterThan(woke + 1_000);
}, 30_000);

test("a cancel ends a running statement with 57014; committed rows stay and the connection carries on", async () => {
  await sql`create table kept (n int)`;
  await sql`insert into kept values (1)`;
  const query = sql`select pg_sleep(30)`;
  const outcome = query.then(
    () => null,
    (error: { code?: string }) => error.code,
  );
  await Bun.sleep(500);
  const started = Date.now();
  await query.cancel();
  expect(await outcome).toBe("57014");
  expect(Date.now() - started).toBeLessThan(10_000);
  expect((await sql`select n from kept`).map((row) => row.n)).toEqual([1]);
  expect(await db.interrupt()).toBe(false);
}, 60_000);
