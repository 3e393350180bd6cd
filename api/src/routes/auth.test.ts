import { beforeAll, describe, expect, test } from "bun:test";
import { testApp } from "../test/test-app";

let t: Awaited<ReturnType<typeof testApp>>;
beforeAll(async () => {
  t = await testApp();
}, 60_000);

describe("POST /api/auth/sync", () => {
  test("creates the user, then updates it", async () => {
    const alice = t.user("alice");
    const first = await alice.request("POST", "/api/auth/sync", { id: alice.uid, email: "a@x.test", displayName: "Alice", photoURL: null });
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ id: alice.uid, email: "a@x.test", displayName: "Alice", photoURL: null });
    await alice.request("POST", "/api/auth/sync", { id: alice.uid, email: "a@x.test", displayName: "Alice B", photoURL: "https://p/x.png" });
    const [row] = await t.db.sql`select display_name, photo_url from users where id = ${alice.uid}`;
    expect(row).toEqual({ display_name: "Alice B", photo_url: "https://p/x.png" });
  });

  test("refuses another user's id and bad bodies", async () => {
    const bob = t.user("bob");
    const other = await bob.request("POST", "/api/auth/sync", { id: "someone-else", email: null });
    expect(other.status).toBe(400);
    expect((await other.json()).error).toBe("id does not match the signed-in user");
    expect((await bob.request("POST", "/api/auth/sync", { email: "x" })).status).toBe(400);
    expect((await t.app.request("/api/auth/sync", { method: "POST", body: "{}" })).status).toBe(401);
  });

  test("a caller who never synced can still create projects (their row is made on first use)", async () => {
    const carol = t.user("carol");
    expect((await carol.request("POST", "/api/projects", { name: "First" })).status).toBe(201);
    expect([...(await t.db.sql`select email from users where id = ${carol.uid}`)]).toEqual([{ email: "carol@example.com" }]);
  });
});
