/** The messages service on the real database: history for the owner only, image links signed afresh. */
import { projectAccess } from "./access";
import { grantedAccess } from "../test/access";
import { beforeAll, describe, expect, test } from "bun:test";
import { insertMessage } from "../db/messages";
import type { AppError } from "../lib/errors";
import { serviceContext } from "../test/service-context";
import { createImageSigner } from "./images";
import { listMessages } from "./messages";
import { createProject } from "./projects";

let ctx: Awaited<ReturnType<typeof serviceContext>> & { signer: ReturnType<typeof createImageSigner> };
beforeAll(async () => {
  ctx = { ...(await serviceContext()), signer: createImageSigner("messages-test") };
}, 60_000);

describe("messages service", () => {
  test("another project's image link is not re-signed; this project's is, with a new expiry", async () => {
    const uid = await ctx.newUser("alice");
    const p = await createProject(ctx, uid, { name: "A" });
    const other = await createProject(ctx, uid, { name: "B" });
    const name = `${crypto.randomUUID()}.webp`;
    const own = `/api/upload/image/${p.id}/${name}?exp=10&sig=stale`;
    const foreign = `/api/upload/image/${other.id}/${name}?exp=10&sig=stale`;
    await insertMessage(ctx.sql, { id: crypto.randomUUID(), projectId: p.id, role: "user", content: "look", attachments: [own, foreign] });
    const [message] = await listMessages(ctx, grantedAccess(uid, p.id));
    const [signed, untouched] = message!.attachments;
    expect(untouched).toBe(foreign);
    const url = new URL(signed!, "http://x");
    expect(url.pathname).toBe(`/api/upload/image/${p.id}/${name}`);
    expect(await ctx.signer.verify(p.id, name, Number(url.searchParams.get("exp")), url.searchParams.get("sig")!)).toBe(true);
  });

  test("someone else's project is 404", async () => {
    const owner = await ctx.newUser("owner");
    const p = await createProject(ctx, owner, { name: "Private" });
    const error = await projectAccess(ctx, await ctx.newUser("mallory"), p.id, "view").catch((e: unknown) => e);
    expect((error as AppError).status).toBe(404);
  });
});
