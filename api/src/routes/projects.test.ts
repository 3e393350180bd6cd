/** /api/projects through the typed client (test/api-client.ts): list, create, get, delete, and what is refused. */
import { beforeAll, describe, expect, test } from "bun:test";
import { sweepBlobs } from "../services/versions/retention";
import { errorBody } from "../test/api-client";
import { testApp } from "../test/test-app";

let t: Awaited<ReturnType<typeof testApp>>;
beforeAll(async () => {
  t = await testApp();
}, 60_000);

describe(`projects routes (${process.env.TEST_DATABASE_URL ? "PostgreSQL" : "PGlite"})`, () => {
  test("a new user has no projects", async () => {
    const res = await t.user("newbie").api.projects.$get();
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual([]);
  });

  test("create trims the name, omits an empty description, and lists newest first", async () => {
    const alice = t.user("alice");
    const first = await alice.api.projects.$post({ json: { name: "  Todo app  ", description: "" } });
    expect(first.status).toBe(201);
    const created = await first.json();
    expect(created).toMatchObject({ name: "Todo app", description: null, sandboxId: null, workflowCommand: null });
    expect(created.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Date(created.updatedAt).toISOString()).toBe(created.updatedAt);

    await Bun.sleep(5);
    const second = await (await alice.api.projects.$post({ json: { name: "Blog", description: "My blog" } })).json();
    const list = await (await alice.api.projects.$get()).json();
    expect(list.map((p) => p.id)).toEqual([second.id, created.id]);

    const got = await alice.api.projects[":id"].$get({ param: { id: created.id } });
    expect(got.status).toBe(200);
    expect((await got.json()).name).toBe("Todo app");
  });

  test("bad input answers 400 with a readable reason and creates nothing", async () => {
    const bob = t.user("bob");
    const blank = await bob.api.projects.$post({ json: { name: "   " } });
    // The route types list only the answers the handler returns; refusals come from app.onError.
    expect<number>(blank.status).toBe(400);
    expect(await errorBody(blank)).toEqual({ error: "name: Name required", code: "bad_request" });

    // Bodies the typed client refuses to compile go raw.
    const wrongType = await bob.request("POST", "/api/projects", { name: 42 });
    expect(wrongType.status).toBe(400);
    expect((await wrongType.json()).error).toContain("name");

    const malformed = await bob.request("POST", "/api/projects", "{not json");
    expect(malformed.status).toBe(400);
    expect((await malformed.json()).code).toBe("bad_request");

    const tooLong = await bob.api.projects.$post({ json: { name: "x".repeat(101) } });
    expect<number>(tooLong.status).toBe(400);

    expect(await (await bob.api.projects.$get()).json()).toEqual([]);
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
      const res = await carol.api.projects[":id"].$get({ param: { id: encodeURIComponent(id) } });
      expect(res.status).toBe(404);
      expect(await errorBody(res)).toEqual({ error: "Project not found", code: "not_found" });
    }
  });

  test("delete removes the project with its messages, file rows and stored objects", async () => {
    const dave = t.user("dave");
    const project = await (await dave.api.projects.$post({ json: { name: "Doomed" } })).json();
    const keep = await (await dave.api.projects.$post({ json: { name: "Kept" } })).json();
    for (const p of [project, keep]) {
      expect((await dave.api.files[":projectId"].$post({ param: { projectId: p.id }, json: { path: "src/a.ts", content: `x in ${p.id}` } })).status).toBe(201);
    }
    await t.db.sql`insert into messages (id, project_id, role, content) values (${crypto.randomUUID()}, ${project.id}, 'user', 'hi')`;
    await t.deps.store.put(`projects/${project.id}/uploads/a.png`, new Uint8Array([1]));
    await t.deps.store.put(`projects/${keep.id}/uploads/a.png`, new Uint8Array([1]));
    const [doomedFile] = await t.db.sql<{ storageKey: string }[]>`select storage_key as "storageKey" from files where project_id = ${project.id}`;
    expect(await t.deps.store.get(doomedFile!.storageKey)).not.toBeNull();

    const res = await dave.api.projects[":id"].$delete({ param: { id: project.id } });
    expect(res.status).toBe(200);
    expect((await dave.api.projects[":id"].$get({ param: { id: project.id } })).status).toBe(404);
    expect(await t.db.sql`select 1 from messages where project_id = ${project.id}`).toHaveLength(0);
    expect(await t.db.sql`select 1 from files where project_id = ${project.id}`).toHaveLength(0);
    expect(await t.deps.store.list(`projects/${project.id}/`)).toEqual([]);
    // Its files' contents are blobs no file or version names any more: the blob sweep removes them.
    await t.db.sql`update blobs set last_used_at = now() - interval '1 hour' where sha256 = ${doomedFile!.storageKey.split("/").at(-1)!}`;
    await sweepBlobs(t.deps, 60);
    expect(await t.deps.store.get(doomedFile!.storageKey)).toBeNull();
    // The other project is untouched.
    expect(await t.deps.store.list(`projects/${keep.id}/`)).toHaveLength(1);
    expect((await (await dave.api.files[":projectId"].$get({ param: { projectId: keep.id } })).json()).map((f) => f.path)).toEqual(["src/a.ts"]);
    expect((await dave.api.projects[":id"].$delete({ param: { id: project.id } })).status).toBe(404);
  });

  test("oversize bodies answer 413", async () => {
    const big = await testApp({ env: { MAX_BODY_BYTES: "1024" } });
    const res = await big.user("erin").api.projects.$post({ json: { name: "x", description: "y".repeat(4000) } });
    expect<number>(res.status).toBe(413);
    expect((await errorBody(res)).code).toBe("payload_too_large");
  });
});
