/**
 * The file-event WebSocket through real servers. On PostgreSQL (TEST_DATABASE_URL) two app instances share
 * the database and a change made through one reaches a client of the other via LISTEN/NOTIFY; on PGlite
 * the in-process bus is checked with one instance.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import postgres from "postgres";
import { deploymentEventSchema } from "@shared/events/deployment-events";
import { WS_PROTOCOL } from "@shared/events/project-events";
import type { Sql } from "../db/client";
import { createMemoryBus } from "../events/memory-bus";
import { createPostgresBus } from "../events/postgres-bus";
import type { EventBus } from "../events/types";
import { silentLogger } from "../lib/logger";
import { appServer, type AppServer as Instance } from "../test/app-server";
import { testApp, type TestUser } from "../test/test-app";
import { sharedProject } from "../test/members";
import { testDb } from "../test/test-db";

const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
const instances: Instance[] = [];
const closers: (() => Promise<unknown>)[] = [];
/** Each instance's pool is named, so its LISTEN connection can be found and cut. */
const poolNames: string[] = [];

async function startInstance(events: EventBus): Promise<Instance> {
  return appServer(await testApp({ events }));
}

async function connect(
  instance: Instance,
  token: string,
): Promise<{ ws: WebSocket; messages: unknown[]; next(pred: (m: any) => boolean, ms?: number): Promise<any> }> {
  const ws = new WebSocket(`${instance.ws}/api/ws`, [WS_PROTOCOL, token]);
  const messages: unknown[] = [];
  const waiters: { pred: (m: any) => boolean; resolve: (m: any) => void }[] = [];
  ws.onmessage = (e) => {
    const m = JSON.parse(String(e.data));
    messages.push(m);
    for (const w of [...waiters]) if (w.pred(m)) waiters.splice(waiters.indexOf(w), 1), w.resolve(m);
  };
  await new Promise((resolve, reject) => ((ws.onopen = resolve), (ws.onerror = reject)));
  return {
    ws,
    messages,
    next: (pred, ms = 3000) =>
      new Promise((resolve, reject) => {
        const found = messages.find(pred);
        if (found) return resolve(found);
        waiters.push({ pred, resolve });
        setTimeout(() => reject(new Error(`no matching message within ${ms} ms; got ${JSON.stringify(messages)}`)), ms);
      }),
  };
}

beforeAll(async () => {
  if (onPostgres) {
    // Each instance gets its own pool, as separate processes would.
    const db = await testDb();
    const target = db.target as { hostname: string; port: number; database: string };
    for (let i = 0; i < 2; i++) {
      poolNames.push(`ws-hub-${i}-${crypto.randomUUID().slice(0, 8)}`);
      const sql = postgres({
        connection: { application_name: poolNames[i]! },
        host: target.hostname,
        port: target.port,
        database: target.database,
        username: "postgres",
        max: 3,
        onnotice: () => {},
      }) as unknown as Sql;
      const bus = await createPostgresBus(sql, silentLogger);
      closers.push(
        () => bus.close(),
        () => sql.end(),
      );
      instances.push(await startInstance(bus));
    }
  } else {
    instances.push(await startInstance(createMemoryBus()));
  }
}, 60_000);

afterAll(async () => {
  for (const i of instances) i.stop();
  for (const close of closers.reverse()) await close().catch(() => {});
});

describe(`file events over /api/ws (${onPostgres ? "two instances on PostgreSQL" : "one instance, in-process bus"})`, () => {
  test("a change through one instance reaches a subscribed client of another; other users get nothing", async () => {
    const writer = instances[0]!;
    const reader = instances[instances.length - 1]!;
    const alice: TestUser = writer.t.user("alice");
    const mallory: TestUser = writer.t.user("mallory");
    const project = await (await alice.request("POST", "/api/projects", { name: "Live" })).json();

    const client = await connect(reader, alice.token);
    client.ws.send(JSON.stringify({ type: "subscribe", projectId: project.id }));
    await client.next((m) => m.type === "subscribed");

    const snoop = await connect(reader, mallory.token);
    snoop.ws.send(JSON.stringify({ type: "subscribe", projectId: project.id }));
    expect(await snoop.next((m) => m.type === "error")).toEqual({ type: "error", message: "Project not found" });

    const created = await (await alice.request("POST", `/api/files/${project.id}`, { path: "src/a.ts", content: "1" })).json();
    expect(await client.next((m) => m.type === "file.created")).toEqual({ type: "file.created", projectId: project.id, file: created });

    await alice.request("PATCH", `/api/files/${created.id}/rename`, { newPath: "src/b.ts" });
    const renamed = await client.next((m) => m.type === "file.renamed");
    expect(renamed).toMatchObject({ oldPath: "src/a.ts", file: { id: created.id, path: "src/b.ts" } });

    await alice.request("DELETE", `/api/files/${created.id}`);
    expect(await client.next((m) => m.type === "file.deleted")).toMatchObject({ file: { id: created.id } });

    await Bun.sleep(200);
    expect(snoop.messages.filter((m: any) => m.type?.startsWith("file."))).toEqual([]);
    client.ws.close();
    snoop.ws.close();
  });

  test("presence is the same on every instance: people on either are listed on both, and leave both", async () => {
    const [first, second] = [instances[0]!, instances[instances.length - 1]!];
    const owner: TestUser = first.t.user(`own${crypto.randomUUID().slice(0, 6)}`);
    const editor: TestUser = first.t.user(`ed${crypto.randomUUID().slice(0, 6)}`);
    const id = await sharedProject(owner, { editor });
    type Presence = { type: string; people: { id: string; name: string }[] };
    const both = [owner.uid, editor.uid].sort();
    const ids = (m: Presence) => m.people.map((p) => p.id).sort();
    const a = await connect(first, owner.token);
    a.ws.send(JSON.stringify({ type: "subscribe", projectId: id }));
    await a.next((m) => m.type === "subscribed");
    const b = await connect(second, editor.token);
    b.ws.send(JSON.stringify({ type: "subscribe", projectId: id }));
    // Each hears both people, wherever they connected.
    await a.next((m) => m.type === "presence" && ids(m).join() === both.join(), 5000);
    await b.next((m) => m.type === "presence" && ids(m).join() === both.join(), 5000);
    expect(
      (a.messages as Presence[])
        .filter((m) => m.type === "presence")
        .at(-1)!
        .people.map((p) => p.name),
    ).toHaveLength(2);
    b.ws.close();
    await a.next((m) => m.type === "presence" && ids(m).join() === owner.uid && a.messages.indexOf(m) > 1, 5000);
    a.ws.close();
  });

  test("a publish's build log and status reach the owner's subscribed client on any instance, nobody else's", async () => {
    const writer = instances[0]!;
    const reader = instances[instances.length - 1]!;
    const alice: TestUser = writer.t.user("alice");
    const project = await (await alice.request("POST", "/api/projects", { name: "Site" })).json();
    await alice.request("POST", `/api/files/${project.id}`, { path: "index.html", content: "<p>hi</p>" });
    const client = await connect(reader, alice.token);
    client.ws.send(JSON.stringify({ type: "subscribe", projectId: project.id }));
    await client.next((m) => m.type === "subscribed");

    const started = await (await alice.request("POST", `/api/projects/${project.id}/publish`, {})).json();
    const log = await client.next((m) => m.type === "deployment.log", 10_000);
    expect(log).toMatchObject({ projectId: project.id, deploymentId: started.deploymentId });
    expect(log.ownerId).toBeUndefined();
    // What the browser parses: the event arrives in the shared schema's shape, nothing stripped or missing.
    expect(deploymentEventSchema.parse(log)).toEqual(log);
    const live = await client.next((m) => m.type === "deployment.status" && m.status === "live", 10_000);
    expect(live).toEqual({ type: "deployment.status", projectId: project.id, deploymentId: started.deploymentId, status: "live", url: started.url });
    expect(deploymentEventSchema.parse(live)).toEqual(live);
    client.ws.close();
  });

  test.skipIf(!onPostgres)(
    "when the LISTEN connection is cut and comes back, a subscribed client gets resync, and events flow again",
    async () => {
      const writer = instances[0]!;
      const reader = instances[1]!;
      const alice: TestUser = writer.t.user("alice");
      const project = await (await alice.request("POST", "/api/projects", { name: "Resync" })).json();
      const client = await connect(reader, alice.token);
      client.ws.send(JSON.stringify({ type: "subscribe", projectId: project.id }));
      await client.next((m) => m.type === "subscribed");

      const admin = (await testDb()).sql;
      const listening = () => admin<{ pid: number }[]>`
      select pid from pg_stat_activity where application_name = ${poolNames[1]!} and query ilike 'listen%'`;
      const [before] = await listening();
      expect(before).toBeDefined();
      const [cut] = await admin<{ terminated: boolean }[]>`select pg_terminate_backend(${before!.pid}) as terminated`;
      expect(cut?.terminated).toBe(true);

      expect(await client.next((m) => m.type === "resync", 15_000)).toEqual({ type: "resync", projectId: project.id });
      expect(client.messages.filter((m: any) => m.type === "resync")).toEqual([{ type: "resync", projectId: project.id }]);
      const [after] = await listening();
      expect(after!.pid).not.toBe(before!.pid);
      // The new connection listens: a change through the other instance arrives as before.
      const created = await (await alice.request("POST", `/api/files/${project.id}`, { path: "after.ts", content: "1" })).json();
      expect(await client.next((m) => m.type === "file.created")).toEqual({ type: "file.created", projectId: project.id, file: created });
      client.ws.close();
    },
    30_000,
  );

  test("a missing or bad token is refused before the upgrade", async () => {
    const res = await fetch(`${instances[0]!.origin}/api/ws`, {
      headers: {
        upgrade: "websocket",
        connection: "Upgrade",
        "sec-websocket-key": "dGhlIHNhbXBsZSBub25jZQ==",
        "sec-websocket-version": "13",
        "sec-websocket-protocol": `${WS_PROTOCOL}, bad.token.here`,
      },
    });
    expect(res.status).toBe(401);
    expect((await res.json()).code).toBe("unauthorized");
    const none = new WebSocket(`${instances[0]!.ws}/api/ws`);
    const closed = await new Promise<boolean>((resolve) => ((none.onerror = () => resolve(true)), (none.onopen = () => resolve(false))));
    expect(closed).toBe(true);
  });
});
