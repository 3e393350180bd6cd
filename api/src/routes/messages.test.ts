/**
 * GET /api/messages/{projectId} through the real app: the project's history oldest first, only for its owner,
 * with this project's image links signed afresh (an old link would have expired) and other links untouched.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { insertMessage } from "../db/messages";
import { testApp, type TestUser } from "../test/test-app";

let t: Awaited<ReturnType<typeof testApp>>;
beforeAll(async () => {
  t = await testApp();
}, 60_000);

const newProject = async (user: TestUser) => (await (await user.request("POST", "/api/projects", { name: "Chat" })).json()) as { id: string };

describe("messages routes", () => {
  test("a new project has no messages", async () => {
    const alice = t.user("alice");
    const p = await newProject(alice);
    const res = await alice.request("GET", `/api/messages/${p.id}`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual([]);
  });

  test("history comes oldest first; this project's image links are re-signed, others are left alone", async () => {
    const bob = t.user("bob");
    const p = await newProject(bob);
    const name = `${crypto.randomUUID()}.png`;
    const stale = `/api/upload/image/${p.id}/${name}?exp=1&sig=old`;
    const foreign = "https://example.com/cat.png";
    await insertMessage(t.db.sql, { id: crypto.randomUUID(), projectId: p.id, role: "user", content: "make a todo app", attachments: [stale, foreign] });
    await Bun.sleep(5); // created_at orders the history
    await insertMessage(t.db.sql, { id: crypto.randomUUID(), projectId: p.id, role: "assistant", content: "Done." });

    const list = await (await bob.request("GET", `/api/messages/${p.id}`)).json();
    expect(list.map((m: { role: string; content: string }) => [m.role, m.content])).toEqual([
      ["user", "make a todo app"],
      ["assistant", "Done."],
    ]);
    const [fresh, kept] = list[0].attachments as string[];
    expect(kept).toBe(foreign);
    const url = new URL(fresh!, "http://x");
    expect(url.pathname).toBe(`/api/upload/image/${p.id}/${name}`);
    expect(Number(url.searchParams.get("exp"))).toBeGreaterThan(Date.now() / 1000);
    expect(await t.deps.signer.verify(p.id, name, Number(url.searchParams.get("exp")), url.searchParams.get("sig")!)).toBe(true);
  });

  test("someone else's project, a missing one and a non-id are all 404; no token is 401", async () => {
    const p = await newProject(t.user("owner"));
    await insertMessage(t.db.sql, { id: crypto.randomUUID(), projectId: p.id, role: "user", content: "secret" });
    const mallory = t.user("mallory");
    for (const id of [p.id, crypto.randomUUID(), "nope"]) {
      const res = await mallory.request("GET", `/api/messages/${id}`);
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ error: "Project not found", code: "not_found" });
    }
    expect((await t.app.request(`/api/messages/${p.id}`)).status).toBe(401);
  });
});
