/**
 * Unattached chat uploads: deleted (row and object) once a day old; attached ones and young ones stay; two
 * sweeps at once (two instances) delete each upload once between them.
 */
import { grantedAccess } from "../test/access";
import { beforeAll, describe, expect, test } from "bun:test";
import { serviceContext } from "../test/service-context";
import { createImageSigner, markImagesAttached, uploadImage } from "./images";
import { createProject } from "./projects";
import { sweepUnattachedUploads } from "./upload-sweep";

const PNG = Uint8Array.from(atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="), (c) => c.charCodeAt(0));

let ctx: Awaited<ReturnType<typeof serviceContext>>;
beforeAll(async () => {
  ctx = await serviceContext();
}, 60_000);

describe("unattached upload sweep", () => {
  test("a day-old upload never sent is deleted; a sent one and a fresh one stay", async () => {
    const uid = await ctx.newUser("ula");
    const project = await createProject(ctx, uid, { name: "Uploads" });
    const up = { ...ctx, signer: createImageSigner("s"), maxBytes: 1 << 20 };
    const upload = async () => (await uploadImage(up, grantedAccess(uid, project.id), new File([PNG], "a.png"))).url;
    const [abandoned, sent, fresh] = [await upload(), await upload(), await upload()];
    await markImagesAttached(ctx, project.id, [sent]);
    const nameOf = (url: string) => url.split("/").pop()!.split("?")[0]!;
    await ctx.sql`update uploads set created_at = now() - interval '25 hours' where name in ${ctx.sql([nameOf(abandoned), nameOf(sent)])}`;

    expect(await sweepUnattachedUploads(ctx)).toBe(1);
    const left = await ctx.sql<{ name: string }[]>`select name from uploads where project_id = ${project.id} order by name`;
    expect(left.map((r) => r.name)).toEqual([nameOf(sent), nameOf(fresh)].sort());
    const objects = (await ctx.store.list(`projects/${project.id}/uploads/`)).map((k) => k.split("/").pop());
    expect(objects.sort()).toEqual([nameOf(sent), nameOf(fresh)].sort());
    expect(await sweepUnattachedUploads(ctx)).toBe(0);
  });

  test("two sweeps at once (two instances) delete each upload exactly once", async () => {
    const uid = await ctx.newUser("vic");
    const project = await createProject(ctx, uid, { name: "Many" });
    const up = { ...ctx, signer: createImageSigner("s"), maxBytes: 1 << 20 };
    for (let i = 0; i < 12; i++) await uploadImage(up, grantedAccess(uid, project.id), new File([PNG], "a.png"));
    await ctx.sql`update uploads set created_at = now() - interval '2 days' where project_id = ${project.id}`;
    const [a, b] = await Promise.all([sweepUnattachedUploads(ctx), sweepUnattachedUploads(ctx)]);
    expect(a + b).toBe(12);
    expect(await ctx.store.list(`projects/${project.id}/uploads/`)).toEqual([]);
  });
});
