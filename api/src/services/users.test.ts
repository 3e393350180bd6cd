/** The users service on the real database: sync stores what the verified token says, only for the caller's own id. */
import { beforeAll, describe, expect, test } from "bun:test";
import { AppError } from "../lib/errors";
import { serviceContext } from "../test/service-context";
import { createUserEnsurer, syncUser } from "./users";

let ctx: Awaited<ReturnType<typeof serviceContext>>;
beforeAll(async () => {
  ctx = await serviceContext();
}, 60_000);

const identity = (uid: string) => ({ uid, email: "token@example.com", name: "From Token", picture: "https://example.com/t.png" });
const row = async (uid: string) => (await ctx.sql`select email, display_name as "displayName", photo_url as "photoURL" from users where id = ${uid}`)[0];

describe("users service", () => {
  test("sync stores the token's fields whatever the body claims, and follows the token on a second sync", async () => {
    const uid = `u-${crypto.randomUUID()}`;
    const claimed = { id: uid, email: "someone.else@example.com", displayName: "Chosen Name", photoURL: "javascript:alert(1)" };
    expect(await syncUser(ctx, identity(uid), claimed)).toEqual({
      id: uid,
      email: "token@example.com",
      displayName: "From Token",
      photoURL: "https://example.com/t.png",
    });
    await syncUser(ctx, { ...identity(uid), email: "new@example.com", picture: "javascript:alert(1)" }, { id: uid });
    expect(await row(uid)).toEqual({ email: "new@example.com", displayName: "From Token", photoURL: null });
  });

  test("sync for another id is a 400 and writes nothing", async () => {
    const uid = `u-${crypto.randomUUID()}`;
    const error = await syncUser(ctx, identity(uid), { id: "someone-else" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).status).toBe(400);
    expect(await row("someone-else")).toBeUndefined();
  });

  test("the ensurer makes a row once and never overwrites a synced one", async () => {
    const uid = `u-${crypto.randomUUID()}`;
    const ensure = createUserEnsurer(ctx);
    await ensure(identity(uid));
    expect(await row(uid)).toEqual({ email: "token@example.com", displayName: "From Token", photoURL: "https://example.com/t.png" });
    await syncUser(ctx, { ...identity(uid), name: "Synced" }, { id: uid });
    await createUserEnsurer(ctx)({ ...identity(uid), name: "Other Token Name" });
    expect((await row(uid))!.displayName).toBe("Synced");
  });

  test("a known uid costs no query; past the memory bound it is asked again", async () => {
    const uid = `u-${crypto.randomUUID()}`;
    let queries = 0;
    const counting = new Proxy(ctx.sql, {
      apply(target, thisArg, args) {
        queries++;
        return Reflect.apply(target, thisArg, args);
      },
    });
    const ensure = createUserEnsurer({ sql: counting }, 1);
    await ensure(identity(uid));
    await ensure(identity(uid));
    expect(queries).toBe(1);
    await ensure(identity(`u-${crypto.randomUUID()}`)); // the one remembered uid is forgotten to make room
    await ensure(identity(uid));
    expect(queries).toBe(3);
  });
});
