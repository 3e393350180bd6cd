/**
 * The PostgreSQL event bus on a real server (TEST_DATABASE_URL): two buses on two pools of one database act
 * as two API instances. Skipped on PGlite, where the app runs one instance on the memory bus.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import postgres from "postgres";
import type { Sql } from "../db/client";
import type { Logger } from "../lib/logger";
import { testDb } from "../test/test-db";
import { createPostgresBus } from "./postgres-bus";
import type { BusEvent, EventBus, FileBusEvent, SiteBusEvent } from "./types";

const url = process.env.TEST_DATABASE_URL;

/** Resolves once `check` holds, polling; fails with `what` after `ms`. */
async function until(what: string, check: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(20);
  }
}

const fileEvent = (n: number, pushedBy?: string): FileBusEvent => ({
  type: "file.updated",
  projectId: "p-bus",
  ownerId: "u-bus",
  origin: "api",
  file: { id: `f${n}`, projectId: "p-bus", path: `src/ü ${n}.ts`, size: n, updatedAt: "2026-01-01T00:00:00.000Z" },
  ...(pushedBy ? { pushedBy } : {}),
});

describe.skipIf(!url)("PostgreSQL event bus (two instances)", () => {
  const pools: Sql[] = [];
  const warnings: { msg: string; fields?: Record<string, unknown> }[] = [];
  const logger: Logger = { debug() {}, info() {}, error() {}, warn: (msg, fields) => void warnings.push({ msg, fields }) };
  let a: EventBus;
  let b: EventBus;
  let admin: Sql;

  /** A second pool on the test database, named so its LISTEN connection can be found and cut. */
  async function pool(name: string): Promise<Sql> {
    const { target } = await testDb();
    if (!("database" in target)) throw new Error("the PostgreSQL bus needs a TCP database");
    const dbUrl = new URL(url!);
    dbUrl.pathname = `/${target.database}`;
    const sql = postgres(dbUrl.toString(), { max: 2, onnotice: () => {}, connection: { application_name: name } }) as unknown as Sql;
    pools.push(sql);
    return sql;
  }

  beforeAll(async () => {
    admin = (await testDb()).sql;
    a = await createPostgresBus(await pool("bus-a"), logger);
    b = await createPostgresBus(await pool("bus-b"), logger);
  });

  afterAll(async () => {
    await a?.close();
    await b?.close();
    await Promise.all(pools.map((p) => p.end()));
  });

  test("a file event reaches both instances whole, in the same order on each", async () => {
    const seenA: BusEvent[] = [];
    const seenB: BusEvent[] = [];
    const offA = a.subscribe((e) => seenA.push(e));
    const offB = b.subscribe((e) => seenB.push(e));
    const sent = [
      fileEvent(1, "sync-1"),
      { type: "file.renamed", projectId: "p-bus", ownerId: "u-bus", origin: "sandbox", oldPath: "a.ts", file: fileEvent(2).file } as FileBusEvent,
      { type: "sandbox.stop", projectId: "p-bus", sandboxId: "sb-1", ownerId: "u-bus", origin: "api" } as BusEvent,
      fileEvent(3),
    ];
    // Published from both instances at once: each sees every event, both in the database's one order.
    await Promise.all([a.publish(sent[0]!), b.publish(sent[1]!), a.publish(sent[2]!), b.publish(sent[3]!)]);
    await until("4 events on each instance", () => seenA.length === 4 && seenB.length === 4);
    expect(seenB).toEqual(seenA);
    expect([...seenA].sort((x, y) => JSON.stringify(x).localeCompare(JSON.stringify(y)))).toEqual(
      [...sent].sort((x, y) => JSON.stringify(x).localeCompare(JSON.stringify(y))),
    );
    offA();
    offB();
  });

  test("site events reach this instance at once and the other once; the two channels stay apart", async () => {
    const files: BusEvent[] = [];
    const sitesA: SiteBusEvent[] = [];
    const sitesB: SiteBusEvent[] = [];
    const offs = [
      a.subscribe((e) => files.push(e)),
      b.subscribe((e) => files.push(e)),
      a.subscribeSite((e) => sitesA.push(e)),
      b.subscribeSite((e) => sitesB.push(e)),
    ];
    const log: SiteBusEvent = { type: "deployment.log", projectId: "p-bus", deploymentId: "d1", ownerId: "u-bus", text: "vite build\n" };
    await a.publishSite(log);
    // The publishing instance saw it before publishSite answered: no round trip through the database.
    expect(sitesA).toEqual([log]);
    await until("the site event on the other instance", () => sitesB.length === 1);
    expect(sitesB).toEqual([log]); // without the sender's mark
    await b.publishSite({ type: "site.changed", slug: "my-site" });
    await until("site.changed on the first instance", () => sitesA.length === 2);
    // A file event sent after them is the fence: once it arrives, a stray echo would have arrived too.
    await a.publish(fileEvent(9));
    await until("the fence event on both instances", () => files.length === 2);
    expect(sitesA).toEqual([log, { type: "site.changed", slug: "my-site" }]);
    expect(sitesB).toEqual([log, { type: "site.changed", slug: "my-site" }]);
    expect(files.every((e) => e.type === "file.updated")).toBe(true);
    for (const off of offs) off();
  });

  test("an unsubscribed handler hears nothing more; the others go on", async () => {
    const gone: BusEvent[] = [];
    const kept: BusEvent[] = [];
    const off = b.subscribe((e) => gone.push(e));
    const offKept = b.subscribe((e) => kept.push(e));
    await a.publish(fileEvent(10));
    await until("the first event", () => gone.length === 1 && kept.length === 1);
    off();
    await a.publish(fileEvent(11));
    await until("the second event on the kept handler", () => kept.length === 2);
    expect(gone.map((e) => (e as FileBusEvent).file.id)).toEqual(["f10"]);
    offKept();
  });

  test("a payload that is not JSON is logged and skipped; the next event still arrives", async () => {
    const seen: BusEvent[] = [];
    const off = b.subscribe((e) => seen.push(e));
    warnings.length = 0;
    await admin`select pg_notify('app_file_events', 'not json {')`;
    await a.publish(fileEvent(12));
    await until("the event after the bad payload", () => seen.length === 1);
    expect(warnings.filter((w) => w.msg === "unreadable bus event").map((w) => w.fields)).toEqual(
      expect.arrayContaining([{ channel: "app_file_events", payload: "not json {" }]),
    );
    off();
  });

  test("when the LISTEN connection is killed, it comes back, tells its resync handlers once, and events flow again", async () => {
    const seen: BusEvent[] = [];
    const off = b.subscribe((e) => seen.push(e));
    const resyncs = { a: 0, b: 0 };
    const offResync = [a.onResync(() => resyncs.a++), b.onResync(() => resyncs.b++)];
    const listening = () => admin<{ pid: number }[]>`
      select pid from pg_stat_activity where application_name = 'bus-b' and query ilike 'listen%'`;
    const [before] = await listening();
    expect(before).toBeDefined();
    const [killed] = await admin<{ terminated: boolean }[]>`select pg_terminate_backend(${before!.pid}) as terminated`;
    expect(killed?.terminated).toBe(true);
    // NOTIFY is not queued for a listener that is gone: events sent while it reconnects are lost. Keep
    // publishing until one arrives on the new connection.
    let n = 100;
    const deadline = Date.now() + 15_000;
    while (!seen.length && Date.now() < deadline) {
      await a.publish(fileEvent(n++));
      await Bun.sleep(200);
    }
    expect(seen.length).toBeGreaterThan(0);
    const [after] = await listening();
    expect(after?.pid).toBeDefined();
    expect(after!.pid).not.toBe(before!.pid);
    // Only the instance whose connection dropped may have missed events; the other had nothing to catch up on.
    expect(resyncs).toEqual({ a: 0, b: 1 });
    for (const stop of offResync) stop();
    off();
  }, 30_000);
});
