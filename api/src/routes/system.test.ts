import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import postgres from "postgres";
import { mkdtempSync, renameSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Sql } from "../db/client";
import { createLocalStore } from "../storage/local";
import { startFakeModelServer, type FakeModelServer } from "../test/fake-model-server";
import { startCuttableProxy, type CuttableProxy } from "../test/tcp-proxy";
import { testApp } from "../test/test-app";
import { testDb } from "../test/test-db";

describe("config, health, readiness", () => {
  let t: Awaited<ReturnType<typeof testApp>>;
  beforeAll(async () => {
    t = await testApp();
  }, 60_000);

  test("GET /api/config tells the SPA how to sign in, without a token", async () => {
    const res = await t.app.request("/api/config");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      auth: { mode: "emulator", projectId: "demo-test", apiKey: "demo-api-key", authDomain: "demo-test.firebaseapp.com", emulatorUrl: "http://127.0.0.1:9" },
      modelConfigured: false,
    });
  });

  test("health and ready answer OK when everything is up; unknown API paths are JSON 404s", async () => {
    expect(await (await t.app.request("/api/health")).json()).toEqual({ status: "ok", instance: expect.stringContaining(String(process.pid)) });
    const ready = await t.app.request("/api/ready");
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ status: "ready", database: "ok", storage: "ok", model: "not_configured" });
    const missing = await t.app.request("/api/nope");
    expect(missing.status).toBe(404);
    expect((await missing.json()).code).toBe("not_found");
  });
});

describe("a dependency goes down and comes back", () => {
  let proxy: CuttableProxy;
  let sql: Sql;
  beforeAll(async () => {
    const db = await testDb();
    proxy = startCuttableProxy("unix" in db.target ? db.target : { hostname: db.target.hostname, port: db.target.port });
    const database = "unix" in db.target ? "postgres" : db.target.database;
    sql = postgres({ host: "127.0.0.1", port: proxy.port, database, username: "postgres", max: 1, connect_timeout: 2, onnotice: () => {} }) as unknown as Sql;
  }, 60_000);
  afterAll(async () => {
    await sql.end({ timeout: 1 }).catch(() => {});
    proxy.stop();
  });

  test("database unreachable: 503 naming the database, then recovery without a restart", async () => {
    const t = await testApp();
    const app = (await import("../app")).createApp({ ...t.deps, sql });
    const alice = t.user("alice");
    const call = () => app.request("/api/projects", { headers: { authorization: `Bearer ${alice.token}` } });
    expect((await call()).status).toBe(200);

    proxy.cut();
    const down = await call();
    expect(down.status).toBe(503);
    expect(await down.json()).toEqual({ error: "Database is unreachable right now; try again in a moment.", code: "dependency_unavailable" });
    const notReady = await app.request("/api/ready");
    expect(notReady.status).toBe(503);
    expect(await notReady.json()).toMatchObject({ database: "unreachable", storage: "ok" });

    proxy.restore();
    expect((await call()).status).toBe(200);
    expect((await app.request("/api/ready")).status).toBe(200);
  });

  test("storage unreachable: 503 naming storage, then recovery", async () => {
    const dir = join(mkdtempSync(join(tmpdir(), "store-down-")), "objects");
    const t = await testApp({ store: createLocalStore(dir) });
    const bob = t.user("bob");
    const p = await (await bob.request("POST", "/api/projects", { name: "S" })).json();
    expect((await bob.request("POST", `/api/files/${p.id}`, { path: "a.txt", content: "a" })).status).toBe(201);

    // Replace the folder with a file: every store call now fails.
    renameSync(dir, `${dir}.away`);
    await Bun.write(dir, "not a folder");
    const res = await bob.request("POST", `/api/files/${p.id}`, { path: "b.txt", content: "b" });
    expect(res.status).toBe(503);
    expect((await res.json()).error).toBe("Storage is unreachable right now; try again in a moment.");
    expect((await t.app.request("/api/ready")).status).toBe(503);

    await Bun.file(dir).delete();
    renameSync(`${dir}.away`, dir);
    expect((await bob.request("POST", `/api/files/${p.id}`, { path: "b.txt", content: "b" })).status).toBe(201);
    expect((await t.app.request("/api/ready")).status).toBe(200);
  });
});

describe("readiness reports the model endpoint without depending on it", () => {
  let model: FakeModelServer;
  beforeAll(async () => {
    model = await startFakeModelServer();
  });
  afterAll(() => model.close());

  test("reachable: model ok", async () => {
    const t = await testApp({ env: { OPENAI_BASE_URL: model.baseUrl, OPENAI_API_KEY: "k" } });
    const res = await t.app.request("/api/ready");
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: "ready", database: "ok", storage: "ok", model: "ok" });
  });

  test("unreachable: reported, and the instance stays ready (projects and files work without a model)", async () => {
    const closed = Bun.serve({ port: 0, fetch: () => new Response() });
    const port = closed.port;
    closed.stop(true);
    const t = await testApp({ env: { OPENAI_BASE_URL: `http://127.0.0.1:${port}/v1`, OPENAI_API_KEY: "k" } });
    const res = await t.app.request("/api/ready");
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: "ready", database: "ok", storage: "ok", model: "unreachable" });
  });
});
