/**
 * Limits that protect a shared server: per-user rate limits counted in the database (so two app instances
 * on one database share them), and per-project file count and size limits on every write path.
 */
import { grantedAccess } from "../test/access";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import postgres from "postgres";
import { createApp } from "../app";
import type { Sql } from "../db/client";
import { pruneCounters } from "../db/rate-limits";
import { silentLogger } from "../lib/logger";
import { createSandboxProvider } from "../sandbox/index";
import { checkLocalSandboxSupport } from "../sandbox/local/check";
import { writeFileAtPath } from "../services/files";
import { createProjectSandboxes, type ProjectSandboxesService } from "../services/sandboxes";
import { imageForm, uploadImage } from "../test/images";
import { testApp, type TestUser } from "../test/test-app";

const sandboxSupport = await checkLocalSandboxSupport();
let t: Awaited<ReturnType<typeof testApp>>;
/** Two instances: separate apps on separate connection pools to the same database (one on PGlite). */
let instances: ReturnType<typeof createApp>[];
let secondPool: Sql | null = null;
let sandboxes: ProjectSandboxesService | null = null;

beforeAll(async () => {
  t = await testApp({
    env: {
      RATE_LIMIT_CHAT_PER_MINUTE: "3",
      RATE_LIMIT_UPLOADS_PER_MINUTE: "2",
      RATE_LIMIT_SHELL_PER_MINUTE: "2",
      RATE_LIMIT_SANDBOX_PER_MINUTE: "2",
      RATE_LIMIT_PROJECTS_PER_MINUTE: "4",
      RATE_LIMIT_DOWNLOADS_PER_MINUTE: "2",
      MAX_PROJECTS_PER_USER: "3",
      MAX_FILES_PER_PROJECT: "3",
      MAX_PROJECT_BYTES: "100",
    },
  });
  // An hour-long window: a test that straddled a minute boundary would otherwise see its count reset.
  const config = { ...t.deps.config, rateLimits: { ...t.deps.config.rateLimits, windowSeconds: 3600 } };
  // The sandbox service counts the sandboxes it makes in the same window.
  sandboxes = createProjectSandboxes({ ...t.deps, provider: createSandboxProvider(config, silentLogger), config });
  const first = createApp({ ...t.deps, config, sandboxes, sandboxSync: sandboxes.sync });
  if ("unix" in t.db.target) {
    instances = [first]; // PGlite is one process's database: one instance
  } else {
    const url = new URL(process.env.TEST_DATABASE_URL!);
    url.pathname = `/${t.db.target.database}`;
    secondPool = postgres(url.toString(), { max: 2, onnotice: () => {} }) as unknown as Sql;
    instances = [first, createApp({ ...t.deps, config, sandboxes, sandboxSync: sandboxes.sync, sql: secondPool })];
  }
}, 60_000);
afterAll(async () => {
  await secondPool?.end({ timeout: 1 });
  await sandboxes?.shutdown();
}, 30_000);

/** The i-th request goes to instance i mod n, as a round-robin load balancer sends them. */
const via = (user: TestUser, i: number, path: string, init: { body?: BodyInit; json?: unknown; method?: string } = {}) =>
  instances[i % instances.length]!.request(path, {
    method: init.method ?? "POST",
    headers: { authorization: `Bearer ${user.token}`, ...(init.json !== undefined ? { "content-type": "application/json" } : {}) },
    body: init.json !== undefined ? JSON.stringify(init.json) : init.body,
  });

async function project(user: TestUser) {
  return (await (await user.request("POST", "/api/projects", { name: "Limits" })).json()).id as string;
}

async function expectRateLimited(res: Response, what: string) {
  expect(res.status).toBe(429);
  const body = await res.json();
  expect(body.code).toBe("rate_limited");
  expect(body.error).toMatch(new RegExp(`^Too many ${what} — try again in \\d+ s\\.$`));
  const wait = Number(res.headers.get("retry-after"));
  expect(wait).toBeGreaterThan(0);
  expect(wait).toBeLessThanOrEqual(3600);
  expect(body.error).toContain(`in ${wait} s`);
}

describe("rate limits shared across instances", () => {
  test("image uploads: the third within the window, on the other instance, answers 429 with Retry-After", async () => {
    const alice = t.user("alice");
    // Two projects: uploads count toward a project's 100 bytes, and this test is about the rate.
    const ids = [await project(alice), await project(alice)];
    const upload = (i: number) => {
      return via(alice, i, "/api/upload/image", { body: imageForm(ids[i % 2]!) });
    };
    expect((await upload(0)).status).toBe(201);
    expect((await upload(1)).status).toBe(201);
    await expectRateLimited(await upload(2), "image uploads");
    await expectRateLimited(await upload(3), "image uploads");

    // Per user: someone else on the same instances is not affected.
    const bob = t.user("bob");
    const bobProject = await project(bob);
    expect((await via(bob, 2, "/api/upload/image", { body: imageForm(bobProject, "b.png") })).status).toBe(201);
  });

  test("chat runs: counted before the body is read, so even refused sends count; the fourth gets 429", async () => {
    const carol = t.user("carol");
    for (let i = 0; i < 3; i++) expect((await via(carol, i, "/api/messages/stream", { json: { projectId: "", content: "" } })).status).toBe(400);
    await expectRateLimited(await via(carol, 3, "/api/messages/stream", { json: { projectId: "x", content: "hi" } }), "chat messages");
  });

  test("shell commands: the third answers 429 before any sandbox is started", async () => {
    const dave = t.user("dave");
    const id = await project(dave);
    for (let i = 0; i < 2; i++) expect((await via(dave, i, `/api/sandbox/${id}/shell`, { json: {} })).status).toBe(400);
    await expectRateLimited(await via(dave, 2, `/api/sandbox/${id}/shell`, { json: { command: "echo hi" } }), "shell commands");
    // Reading routes of the same prefix are not limited.
    expect((await dave.request("GET", `/api/sandbox/${id}/url`)).status).toBe(200);
  });

  test("routes that start sandboxes (recreate, template, run-workflow) share one limit, counted before any sandbox starts", async () => {
    const ivan = t.user("ivan");
    const id = await project(ivan);
    // No workflow configured: 400, but counted.
    for (let i = 0; i < 2; i++) expect((await via(ivan, i, `/api/sandbox/${id}/run-workflow`)).status).toBe(400);
    await expectRateLimited(await via(ivan, 2, `/api/sandbox/${id}/recreate`), "sandbox starts \\(recreate, template, run workflow\\)");
    await expectRateLimited(
      await via(ivan, 3, `/api/sandbox/${id}/template`, { json: { template: "react" } }),
      "sandbox starts \\(recreate, template, run workflow\\)",
    );
    expect((await t.db.sql`select sandbox_id from projects where id = ${id}`)[0]!.sandbox_id).toBeNull();
  });

  test.skipIf(!sandboxSupport.ok)(
    "a sandbox made by any route counts: polling processes across projects gets 429 at the next new sandbox, a running one stays free",
    async () => {
      const nina = t.user("nina");
      const [a, b, c] = [await project(nina), await project(nina), await project(nina)];
      const poll = (id: string, i: number) => via(nina, i, `/api/sandbox/${id}/processes`, { method: "GET" });
      expect((await poll(a, 0)).status).toBe(200); // a new sandbox: one start
      expect((await poll(b, 1)).status).toBe(200); // another: two
      for (let i = 2; i < 5; i++) expect((await poll(i % 2 ? a : b, i)).status).toBe(200); // running ones: free
      await expectRateLimited(await poll(c, 5), "sandbox starts \\(recreate, template, run workflow\\)");
      expect((await t.db.sql`select sandbox_id from projects where id = ${c}`)[0]!.sandbox_id).toBeNull();
      // Starting a process there needs the same new sandbox: refused the same way.
      await expectRateLimited(
        await via(nina, 6, `/api/sandbox/${c}/processes`, { json: { name: "web", command: "sleep 1" } }),
        "sandbox starts \\(recreate, template, run workflow\\)",
      );
      expect((await poll(a, 7)).status).toBe(200);
    },
    60_000,
  );

  test.skipIf(!sandboxSupport.ok)(
    "a run-workflow that makes a sandbox is counted once (by its route), not again where the sandbox is made",
    async () => {
      const olga = t.user("olga");
      const [a, b] = [await project(olga), await project(olga)];
      await t.db.sql`update projects set workflow_command = 'sleep 100' where id in ${t.db.sql([a, b])}`;
      expect((await via(olga, 0, `/api/sandbox/${a}/run-workflow`)).status).toBe(200); // one start, one new sandbox
      expect((await via(olga, 1, `/api/sandbox/${b}/run-workflow`)).status).toBe(200); // two
      await expectRateLimited(await via(olga, 2, `/api/sandbox/${a}/run-workflow`), "sandbox starts \\(recreate, template, run workflow\\)");
    },
    60_000,
  );

  test("project creations are limited, and so is the number of projects one account may hold (409 past it)", async () => {
    const judy = t.user("judy");
    const made: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await via(judy, i, "/api/projects", { json: { name: `P${i}` } });
      expect(res.status).toBe(201);
      made.push((await res.json()).id);
    }
    const over = await via(judy, 3, "/api/projects", { json: { name: "P3" } });
    expect(over.status).toBe(409);
    expect((await over.json()).error).toBe("You already have 3 projects, the most one account may have (3). Delete a project to make room.");
    // Room again after a delete, but the fifth creation this minute is one too many.
    expect((await judy.request("DELETE", `/api/projects/${made[0]}`)).status).toBe(200);
    await expectRateLimited(await via(judy, 4, "/api/projects", { json: { name: "P4" } }), "new projects");
    // Parallel creations cannot overshoot the cap together (the owner's row is locked for count and insert).
    const kim = t.user("kim");
    const parallel = await Promise.all(Array.from({ length: 4 }, (_, i) => via(kim, i, "/api/projects", { json: { name: `K${i}` } })));
    expect(parallel.map((r) => r.status).sort()).toEqual([201, 201, 201, 409]);
    expect((await (await kim.request("GET", "/api/projects")).json()).length).toBe(3);
  });

  test("downloads (the map and the ZIP) share one limit", async () => {
    const lena = t.user("lena");
    const id = await project(lena);
    expect((await via(lena, 0, `/api/files/${id}/download`, { method: "GET" })).status).toBe(200);
    expect((await via(lena, 1, `/api/files/${id}/download.zip`, { method: "GET" })).status).toBe(200);
    await expectRateLimited(await via(lena, 2, `/api/files/${id}/download`, { method: "GET" }), "project downloads");
    await expectRateLimited(await via(lena, 3, `/api/files/${id}/download.zip`, { method: "GET" }), "project downloads");
  });

  test("a limit of 0 switches it off", async () => {
    const config = { ...t.deps.config, rateLimits: { ...t.deps.config.rateLimits, chat: 0 } };
    const app = createApp({ ...t.deps, config });
    const erin = t.user("erin");
    for (let i = 0; i < 5; i++) {
      const res = await app.request("/api/messages/stream", {
        method: "POST",
        headers: { authorization: `Bearer ${erin.token}`, "content-type": "application/json" },
        body: "{}",
      });
      expect(res.status).toBe(400);
    }
  });

  test("counters of past windows are pruned; the current window's stay", async () => {
    await t.db.sql`insert into rate_limit_counters (bucket, window_start, hits) values ('old:x', now() - interval '1 hour', 5), ('new:x', now(), 1)`;
    expect(await pruneCounters(t.db.sql, 60)).toBeGreaterThanOrEqual(1);
    const left = await t.db.sql<{ bucket: string }[]>`select bucket from rate_limit_counters where bucket in ('old:x', 'new:x')`;
    expect(left.map((r) => r.bucket)).toEqual(["new:x"]);
  });
});

describe("per-project file limits", () => {
  test("the API refuses the file past the count limit with 413, but replacing a file is fine", async () => {
    const frank = t.user("frank");
    const id = await project(frank);
    for (const path of ["a.txt", "b.txt", "c.txt"]) expect((await frank.request("POST", `/api/files/${id}`, { path, content: "x" })).status).toBe(201);
    const fourth = await frank.request("POST", `/api/files/${id}`, { path: "d.txt", content: "x" });
    expect(fourth.status).toBe(413);
    expect(await fourth.json()).toEqual({
      error: "This project already has 3 files, the most a project may have (3). Delete some files first.",
      code: "payload_too_large",
    });
    expect((await frank.request("POST", `/api/files/${id}`, { path: "a.txt", content: "replaced" })).status).toBe(200);
    expect((await (await frank.request("GET", `/api/files/${id}`)).json()).map((f: { path: string }) => f.path)).toEqual(["a.txt", "b.txt", "c.txt"]);
  });

  test("the total size limit applies to new files, replacements and saves; nothing is stored past it", async () => {
    const gina = t.user("gina");
    const id = await project(gina);
    const created = await gina.request("POST", `/api/files/${id}`, { path: "big.txt", content: "x".repeat(80) });
    expect(created.status).toBe(201);
    const file = await created.json();

    const tooMuch = await gina.request("POST", `/api/files/${id}`, { path: "more.txt", content: "y".repeat(30) });
    expect(tooMuch.status).toBe(413);
    expect((await tooMuch.json()).error).toBe("This write would bring the project to 110 bytes, over its limit of 100 bytes. Delete some files first.");
    // Replacing counts the new size instead of the old one: 100 bytes fit, 101 do not.
    expect((await gina.request("PATCH", `/api/files/${file.id}/content`, { content: "z".repeat(100) })).status).toBe(200);
    expect((await gina.request("PATCH", `/api/files/${file.id}/content`, { content: "z".repeat(101) })).status).toBe(413);
    expect((await gina.request("POST", `/api/files/${id}`, { path: "big.txt", content: "z".repeat(101) })).status).toBe(413);
    const [usage] = await t.db.sql<{ n: number; bytes: number }[]>`select count(*)::int as n, sum(size)::int as bytes from files where project_id = ${id}`;
    expect(usage).toEqual({ n: 1, bytes: 100 });
    // Contents are stored as blobs by hash: the 100 bytes saved are there, the refused 101 never were.
    const blob = (text: string) => `blobs/sha256/${new Bun.CryptoHasher("sha256").update(text).digest("hex")}`;
    expect(await t.deps.store.get(blob("z".repeat(100)))).not.toBeNull();
    expect(await t.deps.store.get(blob("z".repeat(101)))).toBeNull();
    expect(await t.deps.store.get(blob("y".repeat(30)))).toBeNull();
  });

  test("uploaded images count toward the project's bytes: an upload or a file past the limit is refused", async () => {
    const omar = t.user("omar");
    const id = await project(omar);
    const upload = () => uploadImage(omar, id);
    expect((await upload()).status).toBe(201); // 70 of the 100 bytes
    const second = await upload();
    expect(second.status).toBe(413);
    expect((await second.json()).error).toContain("over its limit of 100 bytes");
    expect((await omar.request("POST", `/api/files/${id}`, { path: "a.txt", content: "z".repeat(40) })).status).toBe(413);
    expect((await omar.request("POST", `/api/files/${id}`, { path: "a.txt", content: "z".repeat(30) })).status).toBe(201);
    expect((await t.deps.store.list(`projects/${id}/uploads/`)).length).toBe(1);
  });

  test("the sandbox sync's writes (origin sandbox) meet the same limits", async () => {
    const hana = t.user("hana");
    const id = await project(hana);
    const fromSandbox = { ...t.deps, origin: "sandbox" as const };
    for (const path of ["1", "2", "3"]) await writeFileAtPath(fromSandbox, grantedAccess(hana.uid, id), path, new Uint8Array([1]));
    const error = await writeFileAtPath(fromSandbox, grantedAccess(hana.uid, id), "4", new Uint8Array([1])).catch((e) => e);
    expect({ status: error.status, code: error.code }).toEqual({ status: 413, code: "payload_too_large" });
  });
});
