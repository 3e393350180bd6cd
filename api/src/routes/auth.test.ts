import { beforeAll, describe, expect, test } from "bun:test";
import { emulatorToken } from "../test/emulator-tokens";
import { TEST_PROJECT_ID, testApp } from "../test/test-app";

let t: Awaited<ReturnType<typeof testApp>>;
beforeAll(async () => {
  t = await testApp();
}, 60_000);

describe("POST /api/auth/sync", () => {
  test("creates the user, then updates it, from the token's claims", async () => {
    const alice = t.user("alice");
    const first = await alice.request("POST", "/api/auth/sync", { id: alice.uid, email: "alice@example.com", displayName: "alice", photoURL: null });
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ id: alice.uid, email: "alice@example.com", displayName: "alice", photoURL: null });
    // A later sign-in whose token carries a new name and photo.
    const renamed = emulatorToken(TEST_PROJECT_ID, { uid: alice.uid, email: "alice@example.com", name: "Alice B", picture: "https://p/x.png" });
    const second = await t.app.request("/api/auth/sync", {
      method: "POST",
      headers: { authorization: `Bearer ${renamed}`, "content-type": "application/json" },
      body: JSON.stringify({ id: alice.uid, displayName: "ignored" }),
    });
    expect(second.status).toBe(200);
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
