import { beforeAll, describe, expect, test } from "bun:test";
import { sweepBlobs } from "../services/versions/retention";
import { testApp } from "../test/test-app";

let t: Awaited<ReturnType<typeof testApp>>;
beforeAll(async () => {
  t = await testApp();
}, 60_000);

describe(`projects routes (${process.env.TEST_DATABASE_URL ? "PostgreSQL" : "PGlite"})`, () => {
  test("a new user has no projects", async () => {
    const res = await t.user("newbie").request("GET", "/api/projects");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual([]);
  });

  test("create trims the name, omits an empty description, and lists newest first", async () => {
    const alice = t.user("alice");
    const first = await alice.request("POST", "/api/projects", { name: "  Todo app  ", description: "" });
    expect(first.status).toBe(201);
    const created = await first.json();
    expect(created).toMatchObject({ name: "Todo app", description: null, sandboxId: null, workflowCommand: null });
    expect(created.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Date(created.updatedAt).toISOString()).toBe(created.updatedAt);

    await Bun.sleep(5);
    const second = await (await alice.request("POST", "/api/projects", { name: "Blog", description: "My blog" })).json();
    const list = await (await alice.request("GET", "/api/projects")).json();
    expect(list.map((p: { id: string }) => p.id)).toEqual([second.id, created.id]);

    const got = await alice.request("GET", `/api/projects/${created.id}`);
    expect(got.status).toBe(200);
    expect((await got.json()).name).toBe("Todo app");
  });

  test("bad input answers 400 with a readable reason and creates nothing", async () => {
    const bob = t.user("bob");
    const blank = await bob.request("POST", "/api/projects", { name: "   " });
    expect(blank.status).toBe(400);
    expect(await blank.json()).toEqual({ error: "name: Name required", code: "bad_request" });

    const wrongType = await bob.request("POST", "/api/projects", { name: 42 });
    expect(wrongType.status).toBe(400);
    expect((await wrongType.json()).error).toContain("name");

    const malformed = await bob.request("POST", "/api/projects", "{not json");
    expect(malformed.status).toBe(400);
    expect((await malformed.json()).code).toBe("bad_request");

    const tooLong = await bob.request("POST", "/api/projects", { name: "x".repeat(101) });
    expect(tooLong.status).toBe(400);

    expect(await (await bob.request("GET", "/api/projects")).json()).toEqual([]);
  });

  test("missing or bad token answers 401 JSON", async () => {
    const none = await t.app.request("/api/projects");
    expect(none.status).toBe(401);
    expect((await none.json()).code).toBe("unauthorized");
    const bad = await t.app.request("/api/projects", { headers: { authorization: "Bearer not.a.token" } });
    expect(bad.status).toBe(401);
    expect(await bad.json()).toMatchObject({ code: "unauthorized" });
  });

  test("unknown and malformed ids answer 404", async () => {
    const carol = t.user("carol");
    for (const id of [crypto.randomUUID(), "not-a-uuid", "'; drop table projects; --"]) {
      const res = await carol.request("GET", `/api/projects/${encodeURIComponent(id)}`);
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ error: "Project not found", code: "not_found" });
    }
  });

  test("delete removes the project with its messages, file rows and stored objects", async () => {
    const dave = t.user("dave");
    const project = await (await dave.request("POST", "/api/projects", { name: "Doomed" })).json();
    const keep = await (await dave.request("POST", "/api/projects", { name: "Kept" })).json();
    for (const p of [project, keep]) {
      expect((await dave.request("POST", `/api/files/${p.id}`, { path: "src/a.ts", content: `x in ${p.id}` })).status).toBe(201);
    }
    await t.db.sql`insert into messages (id, project_id, role, content) values (${crypto.randomUUID()}, ${project.id}, 'user', 'hi')`;
    await t.deps.store.put(`projects/${project.id}/uploads/a.png`, new Uint8Array([1]));
    await t.deps.store.put(`projects/${keep.id}/uploads/a.png`, new Uint8Array([1]));
    const [doomedFile] = await t.db.sql<{ storageKey: string }[]>`select storage_key as "storageKey" from files where project_id = ${project.id}`;
    expect(await t.deps.store.get(doomedFile!.storageKey)).not.toBeNull();

    const res = await dave.request("DELETE", `/api/projects/${project.id}`);
    expect(res.status).toBe(200);
    expect((await dave.request("GET", `/api/projects/${project.id}`)).status).toBe(404);
    expect(await t.db.sql`select 1 from messages where project_id = ${project.id}`).toHaveLength(0);
    expect(await t.db.sql`select 1 from files where project_id = ${project.id}`).toHaveLength(0);
    expect(await t.deps.store.list(`projects/${project.id}/`)).toEqual([]);
    // Its files' contents are blobs no file or version names any more: the blob sweep removes them.
    await t.db.sql`update blobs set last_used_at = now() - interval '1 hour' where sha256 = ${doomedFile!.storageKey.split("/").at(-1)!}`;
    await sweepBlobs(t.deps, 60);
    expect(await t.deps.store.get(doomedFile!.storageKey)).toBeNull();
    // The other project is untouched.
    expect(await t.deps.store.list(`projects/${keep.id}/`)).toHaveLength(1);
    expect((await (await dave.request("GET", `/api/files/${keep.id}`)).json()).map((f: { path: string }) => f.path)).toEqual(["src/a.ts"]);
    expect((await dave.request("DELETE", `/api/projects/${project.id}`)).status).toBe(404);
  });

  test("oversize bodies answer 413", async () => {
    const big = await testApp({ env: { MAX_BODY_BYTES: "1024" } });
    const res = await big.user("erin").request("POST", "/api/projects", { name: "x", description: "y".repeat(4000) });
    expect(res.status).toBe(413);
    expect((await res.json()).code).toBe("payload_too_large");
  });
});
