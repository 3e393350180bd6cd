/**
 * The bounded wait per query, on the app's own client (createSql) talking to the tests' database through a
 * proxy that can stall it: plain, over TLS (when the server has it), and with sslmode asking for TLS from a
 * server without it (PGlite).
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { databaseTlsMissing } from "../test/database-tls";
import { startCuttableProxy, type CuttableProxy } from "../test/tcp-proxy";
import { testDb } from "../test/test-db";
import { createSql, type Sql } from "./client";
import { startEmbeddedPostgres, type EmbeddedPostgres } from "./embedded";
import { QUERY_TIMEOUT } from "./query-watchdog";

const BOUND_MS = 1_000;
const db = await testDb();
const tlsMissing = await databaseTlsMissing(db);
if (tlsMissing) console.log(`query watchdog over TLS skipped: ${tlsMissing}`);
const database = "unix" in db.target ? "postgres" : db.target.database;
const upstream = "unix" in db.target ? db.target : { hostname: db.target.hostname, port: db.target.port };

let proxy: CuttableProxy;
const clients: Sql[] = [];
const client = (query = "") => {
  const sql = createSql(`postgres://postgres@127.0.0.1:${proxy.port}/${database}${query}`, { max: 1, queryTimeoutMs: () => BOUND_MS });
  clients.push(sql);
  return sql;
};
/** How a query ended and how long it took. */
const outcome = async (query: Promise<unknown>) => {
  const started = performance.now();
  const code = await query.then(
    () => "ok",
    (error: { code?: string; message: string }) => error.code ?? error.message,
  );
  return { code, ms: performance.now() - started };
};
const encrypted = async (sql: Sql) => (await sql<{ ssl: boolean }[]>`select ssl from pg_stat_ssl where pid = pg_backend_pid()`)[0]?.ssl;

beforeAll(() => {
  proxy = startCuttableProxy(upstream);
});
afterEach(async () => {
  proxy.resume();
  await Promise.all(clients.splice(0).map((sql) => sql.end({ timeout: 1 }).catch(() => {})));
});
afterAll(() => proxy.stop());

describe("query watchdog", () => {
  test("a new statement with parameters, stalled before its types come back, fails within the bound; the pool recovers", async () => {
    const sql = client();
    expect([...(await sql`select 1 as one`)]).toEqual([{ one: 1 }]);
    proxy.stall();
    // postgres.js first asks for the parameter types (Parse, Describe, Flush: no ReadyForQuery follows).
    const stalled = await outcome(sql`select ${7}::int as n`);
    expect(stalled.code).toBe(QUERY_TIMEOUT);
    expect(stalled.ms).toBeLessThan(BOUND_MS * 3);
    proxy.resume();
    expect([...(await sql`select ${8}::int as n`)]).toEqual([{ n: 8 }]);
  }, 20_000);

  test("an idle connection, and one that has finished a query with parameters, is not cut", async () => {
    const sql = client();
    const [before] = await sql<{ pid: number }[]>`select pg_backend_pid() as pid, ${1}::int as n`;
    await Bun.sleep(BOUND_MS * 2);
    const [after] = await sql<{ pid: number }[]>`select pg_backend_pid() as pid`;
    expect(after!.pid).toBe(before!.pid);
  }, 20_000);
});

describe("pool figures for /metrics", () => {
  test("open and busy connections: busy while a query waits on the server, idle after, none once the pool ends", async () => {
    const stats = { open: 0, busy: 0 };
    const sql = createSql(`postgres://postgres@127.0.0.1:${proxy.port}/${database}`, { max: 2, queryTimeoutMs: () => 0, stats });
    clients.push(sql);
    await sql`select 1`;
    expect(stats).toEqual({ open: 1, busy: 0 });
    proxy.stall();
    const a = sql`select 2`;
    const b = sql`select 3`;
    const both = Promise.all([a, b]);
    const waitUntil = async (ok: () => boolean) => {
      for (let i = 0; i < 100 && !ok(); i++) await Bun.sleep(20);
    };
    await waitUntil(() => stats.busy === 2);
    expect(stats).toEqual({ open: 2, busy: 2 });
    proxy.resume();
    await both;
    expect(stats.busy).toBe(0);
    await sql.end({ timeout: 1 });
    await waitUntil(() => stats.open === 0);
    expect(stats.open).toBe(0);
  }, 20_000);
});

describe.skipIf(tlsMissing !== null)("query watchdog over TLS", () => {
  test("a stalled query on an encrypted connection fails within the bound; the pool reconnects encrypted", async () => {
    const sql = client("?sslmode=require");
    expect(await encrypted(sql)).toBe(true);
    proxy.stall();
    const stalled = await outcome(sql`select 1 as one`);
    expect(stalled.code).toBe(QUERY_TIMEOUT);
    expect(stalled.ms).toBeLessThan(BOUND_MS * 3);
    const parameters = await outcome(sql`select ${7}::int as n`);
    expect(parameters.code).toMatch(/^(QUERY_TIMEOUT|CONNECT_TIMEOUT)$/);
    expect(parameters.ms).toBeLessThan(BOUND_MS * 3);
    proxy.resume();
    expect(await encrypted(sql)).toBe(true);
  }, 20_000);

  test("a stall while TLS is being set up fails within the bound; the pool connects once it ends", async () => {
    const sql = client("?sslmode=require");
    proxy.stall();
    const stalled = await outcome(sql`select 1 as one`);
    expect(stalled.code).toBe("CONNECT_TIMEOUT");
    expect(stalled.ms).toBeLessThan(BOUND_MS * 3);
    proxy.resume();
    expect(await encrypted(sql)).toBe(true);
  }, 20_000);

  test("an idle encrypted connection is not cut", async () => {
    const sql = client("?sslmode=require");
    const [before] = await sql<{ pid: number }[]>`select pg_backend_pid() as pid, ${1}::int as n`;
    await Bun.sleep(BOUND_MS * 2);
    const [after] = await sql<{ pid: number }[]>`select pg_backend_pid() as pid`;
    expect(after!.pid).toBe(before!.pid);
  }, 20_000);

  test("sslmode=verify-full still checks the server's certificate", async () => {
    // The test server's certificate is self-signed (Debian's snakeoil) and names no IP address.
    const sql = client("?sslmode=verify-full");
    const refused = await outcome(sql`select 1 as one`);
    expect(refused.code).toMatch(/CERT|SELF_SIGNED|ALTNAME/);
  }, 20_000);
});

describe("query watchdog: sslmode against a server without TLS", () => {
  // PGlite answers the SSLRequest with 'N'; when the tests run on PostgreSQL, start one for this.
  let embedded: EmbeddedPostgres | undefined;
  let plainProxy: CuttableProxy;
  const plainClient = (query: string) => {
    const sql = createSql(`postgres://postgres@127.0.0.1:${plainProxy.port}/postgres${query}`, { max: 1, queryTimeoutMs: () => BOUND_MS });
    clients.push(sql);
    return sql;
  };
  beforeAll(async () => {
    if (!("unix" in db.target)) embedded = await startEmbeddedPostgres({ maxConnections: 4 });
    plainProxy = startCuttableProxy(embedded ? { unix: embedded.socketPath } : upstream);
  }, 60_000);
  afterEach(() => plainProxy.resume());
  afterAll(async () => {
    await Promise.all(clients.splice(0).map((sql) => sql.end({ timeout: 1 }).catch(() => {})));
    plainProxy.stop();
    await embedded?.stop();
  });

  test("sslmode=require fails at once with a clear error, every time, without leaving the pool stuck", async () => {
    const sql = plainClient("?sslmode=require");
    for (let i = 0; i < 2; i++) {
      const refused = await outcome(sql`select 1 as one`);
      expect(refused.code).toBe("the database server does not accept TLS connections");
      expect(refused.ms).toBeLessThan(BOUND_MS);
    }
  }, 20_000);

  test("sslmode=prefer falls back to a plain connection, which is still watched", async () => {
    const sql = plainClient("?sslmode=prefer");
    expect([...(await sql`select 1 as one`)]).toEqual([{ one: 1 }]);
    plainProxy.stall();
    const stalled = await outcome(sql`select 2 as two`);
    expect(stalled.code).toBe(QUERY_TIMEOUT);
    expect(stalled.ms).toBeLessThan(BOUND_MS * 3);
    plainProxy.resume();
    expect([...(await sql`select 3 as three`)]).toEqual([{ three: 3 }]);
  }, 20_000);
});
