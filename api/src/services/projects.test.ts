/** The projects service on the real database and a local store: ownership and what deleting takes with it. */
import { grantedAccess } from "../test/access";
import { beforeAll, describe, expect, test } from "bun:test";
import { AppError } from "../lib/errors";
import { serviceContext } from "../test/service-context";
import { writeFileAtPath } from "./files";
import { sweepBlobs } from "./versions/retention";
import { projectAccess } from "./access";
import { createProject, deleteProject, getProject, listProjects } from "./projects";

let ctx: Awaited<ReturnType<typeof serviceContext>>;
beforeAll(async () => {
  ctx = await serviceContext();
}, 60_000);

const status = (promise: Promise<unknown>) =>
  promise.then(
    () => 200,
    (e: unknown) => (e instanceof AppError ? e.status : 500),
  );

describe("projects service", () => {
  test("create keeps the name and turns an empty description into null; list shows only the owner's", async () => {
    const alice = await ctx.newUser("alice");
    const bob = await ctx.newUser("bob");
    const made = await createProject(ctx, alice, { name: "Todo", description: "" });
    expect(made).toMatchObject({ name: "Todo", description: null, sandboxId: null, sandboxUrl: null, workflowCommand: null });
    await createProject(ctx, bob, { name: "Other" });
    expect((await listProjects(ctx, alice)).map((p) => p.id)).toEqual([made.id]);
  });

  test("someone else's project, a missing one and a non-id are all 404", async () => {
    const owner = await ctx.newUser("owner");
    const p = await createProject(ctx, owner, { name: "Mine" });
    const stranger = await ctx.newUser("stranger");
    const access = await projectAccess(ctx, owner, p.id, "own");
    expect(access).toMatchObject({ projectId: p.id, userId: owner, ownerId: owner, role: "owner" });
    expect((await getProject(ctx, access)).id).toBe(p.id);
    for (const need of ["view", "edit", "own"] as const) expect(await status(projectAccess(ctx, stranger, p.id, need))).toBe(404);
    expect(await status(projectAccess(ctx, owner, crypto.randomUUID(), "view"))).toBe(404);
    expect(await status(projectAccess(ctx, owner, "not-a-uuid", "view"))).toBe(404);
    await deleteProject(ctx, access);
    expect(await status(projectAccess(ctx, owner, p.id, "view"))).toBe(404);
    // A value checked before the delete reads nothing after it.
    expect(await status(getProject(ctx, access))).toBe(404);
  });

  test("delete removes the project, its file rows and its stored objects", async () => {
    const carol = await ctx.newUser("carol");
    const p = await createProject(ctx, carol, { name: "Gone" });
    await writeFileAtPath(ctx, grantedAccess(carol, p.id), "a.txt", `A ${p.id}`);
    await writeFileAtPath(ctx, grantedAccess(carol, p.id), "b/c.txt", `C ${p.id}`);
    await ctx.store.put(`projects/${p.id}/uploads/a.png`, new Uint8Array([1]));
    const keys = (await ctx.sql<{ k: string }[]>`select storage_key as k from files where project_id = ${p.id}`).map((r) => r.k);
    expect(keys).toHaveLength(2);
    await deleteProject(ctx, grantedAccess(carol, p.id));
    expect(await ctx.store.list(`projects/${p.id}/`)).toEqual([]);
    // The files' contents are blobs nothing names any more: the blob sweep takes them.
    await ctx.sql`update blobs set last_used_at = now() - interval '1 hour' where sha256 = any(${keys.map((k) => k.split("/").at(-1)!)}::text[])`;
    await sweepBlobs(ctx, 60);
    for (const key of keys) expect(await ctx.store.get(key)).toBeNull();
    expect((await ctx.sql`select count(*)::int as n from files where project_id = ${p.id}`)[0]!.n).toBe(0);
    expect(await listProjects(ctx, carol)).toEqual([]);
  });
});
