/**
 * Attack / fault replayed: the database keeps its TCP connections open but stops answering (a network
 * partition, a frozen server). Before the fix every route hung for as long as the stall lasted, and over TLS
 * (`sslmode=require`, as managed PostgreSQL is usually reached) the bound did not apply at all.
 * Safe outcome: routes answer 503 naming the database within 10 s, and 200 again once the stall ends.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createApp } from "../api/src/app";
import { createSql, type Sql } from "../api/src/db/client";
import { databaseTlsMissing } from "../api/src/test/database-tls";
import { startCuttableProxy, type CuttableProxy } from "../api/src/test/tcp-proxy";
import { testApp } from "../api/src/test/test-app";
import { testDb } from "../api/src/test/test-db";

const db = await testDb();
const tlsMissing = await databaseTlsMissing(db);
if (tlsMissing) console.log(`database stall over TLS skipped: ${tlsMissing}`);
/** The TCP server the TLS test reaches, or null where it is skipped (PGlite's unix socket has no TLS). */
const tlsServer = tlsMissing !== null || "unix" in db.target ? null : db.target;

describe("database stall", () => {
  let proxy: CuttableProxy;
  let sql: Sql;
  beforeAll(() => {
    proxy = startCuttableProxy("unix" in db.target ? db.target : { hostname: db.target.hostname, port: db.target.port });
  });
  afterAll(async () => {
    proxy.resume();
    await sql?.end({ timeout: 1 }).catch(() => {});
    proxy.stop();
  });

  test("a stalled database gets 503s naming it within 10 s, then 200s after the stall ends", async () => {
    const database = "unix" in db.target ? "postgres" : db.target.database;
    // The app's own client (createSql), with its per-query bound shortened so the test is quick.
    sql = createSql({ host: "127.0.0.1", port: proxy.port, database, username: "postgres" }, { max: 1, queryTimeoutMs: () => 2_000 });
    await replayStall(proxy, sql);
  }, 30_000);
});

describe.skipIf(tlsServer === null)("database stall over TLS", () => {
  // Only runs when skipIf above found a TCP server.
  const server = tlsServer!;
  let proxy: CuttableProxy;
  let sql: Sql;
  beforeAll(() => {
    proxy = startCuttableProxy({ hostname: server.hostname, port: server.port });
  });
  afterAll(async () => {
    proxy.resume();
    await sql?.end({ timeout: 1 }).catch(() => {});
    proxy.stop();
  });

  test("over sslmode=require, a stalled database gets 503s naming it within 10 s, then 200s after the stall ends", async () => {
    sql = createSql(`postgres://postgres@127.0.0.1:${proxy.port}/${server.database}?sslmode=require`, { max: 1, queryTimeoutMs: () => 2_000 });
    // The stall is replayed on an encrypted connection, not a silently plain one.
    expect((await sql<{ ssl: boolean }[]>`select ssl from pg_stat_ssl where pid = pg_backend_pid()`)[0]?.ssl).toBe(true);
    await replayStall(proxy, sql);
  }, 30_000);
});

async function replayStall(proxy: CuttableProxy, sql: Sql) {
  const t = await testApp();
  const app = createApp({ ...t.deps, sql });
  const alice = t.user("alice");
  const call = () => app.request("/api/projects", { headers: { authorization: `Bearer ${alice.token}` } });
  expect((await call()).status).toBe(200);

  proxy.stall();
  const started = performance.now();
  // Several requests at once: the ones queued behind the stalled connection must not wait forever either.
  const answers = await Promise.all([call(), call(), call()]);
  const waited = performance.now() - started;
  for (const res of answers) {
    expect(res.status).toBe(503);
    expect((await res.json()).error).toMatch(/^Database /);
  }
  expect(waited).toBeLessThan(10_000);

  proxy.resume();
  let status = 0;
  for (let i = 0; i < 20 && status !== 200; i++) {
    status = (await call()).status;
    if (status !== 200) await Bun.sleep(250);
  }
  expect(status).toBe(200);
}
