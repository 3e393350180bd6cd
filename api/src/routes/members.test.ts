/**
 * /api/projects/{id}/members, /transfer, /activity and /api/projects/shared on the real app and database:
 * invitations taken up at sign-in with a verified e-mail, the owner alone managing members, every bad input
 * with its reason, MAX_MEMBERS_PER_PROJECT, roles enforced (a viewer's write is 403 with the view-only text),
 * a removed member's next request 404, and the activity naming who did what.
 */
import { describe, expect, test } from "bun:test";
import type { Member, SharedProject } from "@shared/schemas/members";
import { addMember, emailOf, sharedProject, signIn } from "../test/members";
import { testApp } from "../test/test-app";

const t = await testApp({ env: { MAX_MEMBERS_PER_PROJECT: "3" } });
// Unique names: an invitation goes to an e-mail, and the test database is shared by the suite's files.
const person = (name: string) => t.user(`${name}${crypto.randomUUID().slice(0, 8)}`);
const error = async (res: Response) => (await res.json()) as { error: string; code: string };

describe("members", () => {
  test("an invitation is pending until the invited person signs in with that verified e-mail; then they are in, with their role", async () => {
    const owner = person("own");
    const bo = person("bo");
    await signIn(owner);
    // Bo has used the app before (a request takes up invitations once per server process, as a sign-in does).
    expect((await bo.request("GET", "/api/projects")).status).toBe(200);
    const id = ((await (await owner.request("POST", "/api/projects", { name: "Together" })).json()) as { id: string }).id;
    const invited = await owner.request("POST", `/api/projects/${id}/members`, { email: ` ${emailOf(bo).toUpperCase()} `, role: "editor" });
    expect(invited.status).toBe(201);
    expect(await invited.json()).toEqual({ email: emailOf(bo), role: "editor", status: "invited" });
    // Not yet a member until they sign in: the project is still a stranger's to them.
    expect((await bo.request("GET", `/api/projects/${id}`)).status).toBe(404);
    await signIn(bo);
    expect((await bo.request("GET", `/api/projects/${id}`)).status).toBe(200);
    const list = (await (await bo.request("GET", `/api/projects/${id}/members`)).json()) as Member[];
    expect(list).toEqual([
      { email: emailOf(owner), role: "owner", status: "active", name: expect.any(String) },
      { email: emailOf(bo), role: "editor", status: "active", name: expect.any(String) },
    ]);
    const shared = (await (await bo.request("GET", "/api/projects/shared")).json()) as SharedProject[];
    expect(shared).toEqual([
      { id, name: "Together", description: null, updatedAt: expect.any(String), role: "editor", ownerName: expect.stringContaining("own") },
    ]);
    expect(await (await bo.request("GET", "/api/projects")).json()).toEqual([]);
  });

  test("bad invitations: yourself, the owner, a member already, an unknown role, a malformed e-mail; all 400 with the reason", async () => {
    const owner = person("own");
    const bo = person("bo");
    const id = await sharedProject(owner, { editor: bo });
    const cases: [unknown, RegExp][] = [
      [{ email: emailOf(owner), role: "editor" }, /yourself/],
      [{ email: emailOf(bo), role: "viewer" }, /already a member/],
      [{ email: "someone@example.com", role: "admin" }, /role must be "viewer" or "editor"/],
      [{ email: "someone@example.com", role: "owner" }, /role must be "viewer" or "editor"/],
      [{ email: "not-an-address", role: "viewer" }, /not an e-mail address/],
      [{ email: "a b@example.com", role: "viewer" }, /not an e-mail address/],
      [{ role: "viewer" }, /not an e-mail address/],
      ["not json", /not an e-mail address/],
    ];
    for (const [body, reason] of cases) {
      const res = await owner.request("POST", `/api/projects/${id}/members`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect((await error(res)).error).toMatch(reason);
    }
    // The owner, invited by someone who is not the owner, is refused for rights first (403), not for the address.
    expect((await bo.request("POST", `/api/projects/${id}/members`, { email: emailOf(owner), role: "viewer" })).status).toBe(403);
  });

  test("only the owner manages members (403 for an editor or viewer, 404 for a stranger); a member may leave", async () => {
    const owner = person("own");
    const ed = person("ed");
    const vi = person("vi");
    const stranger = person("str");
    const id = await sharedProject(owner, { editor: ed, viewer: vi });
    for (const who of [ed, vi]) {
      const invite = await who.request("POST", `/api/projects/${id}/members`, { email: "x@example.com", role: "viewer" });
      expect(invite.status).toBe(403);
      expect((await who.request("PATCH", `/api/projects/${id}/members/${emailOf(vi)}`, { role: "editor" })).status).toBe(403);
      expect((await who.request("POST", `/api/projects/${id}/transfer`, { email: emailOf(ed) })).status).toBe(403);
    }
    expect((await error(await vi.request("POST", `/api/projects/${id}/members`, { email: "x@example.com", role: "viewer" }))).error).toBe(
      "You can only view this project.",
    );
    expect((await ed.request("DELETE", `/api/projects/${id}/members/${emailOf(vi)}`)).status).toBe(403);
    expect((await stranger.request("GET", `/api/projects/${id}/members`)).status).toBe(404);
    expect((await stranger.request("POST", `/api/projects/${id}/members`, { email: "x@example.com", role: "viewer" })).status).toBe(404);
    expect((await stranger.request("DELETE", `/api/projects/${id}/members/${emailOf(vi)}`)).status).toBe(404);
    // The viewer leaves: one click, then the project is a stranger's to them.
    expect((await vi.request("DELETE", `/api/projects/${id}/members/${emailOf(vi)}`)).status).toBe(204);
    expect((await vi.request("GET", `/api/projects/${id}`)).status).toBe(404);
    expect(await (await vi.request("GET", "/api/projects/shared")).json()).toEqual([]);
  });

  test("roles: a viewer reads but every write is 403 saying they can only view; an editor writes but may not delete or touch secrets", async () => {
    const owner = person("own");
    const ed = person("ed");
    const vi = person("vi");
    const id = await sharedProject(owner, { editor: ed, viewer: vi });
    const made = await owner.request("POST", `/api/files/${id}`, { path: "a.txt", content: "one" });
    const file = (await made.json()) as { id: string };
    expect((await vi.request("GET", `/api/files/${id}`)).status).toBe(200);
    expect((await vi.request("GET", `/api/files/${id}/${file.id}`)).status).toBe(200);
    expect((await vi.request("GET", `/api/messages/${id}`)).status).toBe(200);
    expect((await vi.request("GET", `/api/projects/${id}/versions`)).status).toBe(200);
    for (const [method, path, body] of [
      ["POST", `/api/files/${id}`, { path: "b.txt", content: "two" }],
      ["PATCH", `/api/files/${file.id}/content`, { content: "mine" }],
      ["DELETE", `/api/files/${file.id}`, undefined],
      ["POST", "/api/messages/stream", { projectId: id, content: "Hi" }],
      ["POST", `/api/sandbox/${id}/shell`, { command: "ls" }],
      ["PUT", `/api/projects/${id}/secrets/API_KEY`, { value: "abcdefgh" }],
      ["GET", `/api/projects/${id}/secrets`, undefined],
      ["POST", `/api/projects/${id}/versions`, { label: "Mine" }],
    ] as const) {
      const res = await vi.request(method, path, body);
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(await error(res)).toEqual({ error: "You can only view this project.", code: "forbidden" });
    }
    expect((await ed.request("PATCH", `/api/files/${file.id}/content`, { content: "edited" })).status).toBe(200);
    expect((await ed.request("POST", `/api/projects/${id}/versions`, { label: "Editor's" })).status).toBe(201);
    expect((await ed.request("GET", `/api/projects/${id}/secrets`)).status).toBe(200);
    expect((await ed.request("PUT", `/api/projects/${id}/secrets/API_KEY`, { value: "abcdefgh" })).status).toBe(403);
    expect((await ed.request("DELETE", `/api/projects/${id}`)).status).toBe(403);
    expect((await owner.request("GET", `/api/projects/${id}`)).status).toBe(200);
  });

  test("change a role, remove a member (their next request is 404), the cap, and the activity saying who did what", async () => {
    const owner = person("own");
    const ed = person("ed");
    const vi = person("vi");
    const id = await sharedProject(owner, { editor: ed, viewer: vi });
    const changed = await owner.request("PATCH", `/api/projects/${id}/members/${emailOf(ed)}`, { role: "viewer" });
    expect(changed.status).toBe(200);
    expect(await changed.json()).toMatchObject({ email: emailOf(ed), role: "viewer", status: "active" });
    expect((await ed.request("POST", `/api/files/${id}`, { path: "c.txt", content: "c" })).status).toBe(403);
    expect((await owner.request("PATCH", `/api/projects/${id}/members/${emailOf(ed)}`, { role: "boss" })).status).toBe(400);
    expect((await owner.request("PATCH", `/api/projects/${id}/members/nobody@example.com`, { role: "viewer" })).status).toBe(404);

    expect((await owner.request("DELETE", `/api/projects/${id}/members/${emailOf(vi)}`)).status).toBe(204);
    expect((await vi.request("GET", `/api/files/${id}`)).status).toBe(404);
    expect((await owner.request("DELETE", `/api/projects/${id}/members/${emailOf(vi)}`)).status).toBe(404);

    // MAX_MEMBERS_PER_PROJECT is 3 here: the editor-turned-viewer and two more; a fourth is refused.
    for (const n of [1, 2])
      expect((await owner.request("POST", `/api/projects/${id}/members`, { email: `extra${n}-${id}@example.com`, role: "viewer" })).status).toBe(201);
    const full = await owner.request("POST", `/api/projects/${id}/members`, { email: `extra3-${id}@example.com`, role: "viewer" });
    expect(full.status).toBe(409);
    expect((await error(full)).error).toContain("(3)");

    const activity = (await (await ed.request("GET", `/api/projects/${id}/activity`)).json()) as {
      kind: string;
      detail: Record<string, unknown>;
      actor: { email: string };
    }[];
    expect(activity.map((a) => [a.kind, a.detail.email])).toEqual([
      ["member.invited", `extra2-${id}@example.com`],
      ["member.invited", `extra1-${id}@example.com`],
      ["member.removed", emailOf(vi)],
      ["member.role_changed", emailOf(ed)],
      ["member.invited", emailOf(vi)],
      ["member.invited", emailOf(ed)],
    ]);
    expect(activity.every((a) => a.actor.email === emailOf(owner))).toBe(true);
  });

  test("transfer: ownership passes to an active member, the old owner becomes an editor; not to an invitation or a stranger", async () => {
    const owner = person("own");
    const ed = person("ed");
    await signIn(owner);
    const id = await sharedProject(owner, { editor: ed });
    await owner.request("POST", `/api/projects/${id}/members`, { email: "pending@example.com", role: "viewer" });
    expect((await error(await owner.request("POST", `/api/projects/${id}/transfer`, { email: "pending@example.com" }))).error).toMatch(/not accepted/);
    expect((await owner.request("POST", `/api/projects/${id}/transfer`, { email: "nobody@example.com" })).status).toBe(400);
    expect((await owner.request("POST", `/api/projects/${id}/transfer`, { email: "nope" })).status).toBe(400);
    const moved = await owner.request("POST", `/api/projects/${id}/transfer`, { email: emailOf(ed) });
    expect(moved.status).toBe(200);
    const list = (await moved.json()) as Member[];
    expect(list[0]).toMatchObject({ email: emailOf(ed), role: "owner" });
    expect(list).toContainEqual(expect.objectContaining({ email: emailOf(owner), role: "editor", status: "active" }));
    // The new owner deletes; the old one, now an editor, may not.
    expect((await owner.request("DELETE", `/api/projects/${id}`)).status).toBe(403);
    expect((await ed.request("GET", "/api/projects")).json()).resolves.toEqual([expect.objectContaining({ id })]);
    expect((await ed.request("DELETE", `/api/projects/${id}`)).status).toBe(200);
  });

  test("an invitation is taken up only for a verified e-mail", async () => {
    const owner = person("own");
    const id = await sharedProject(owner, {});
    const email = `unverified-${id}@example.com`;
    await owner.request("POST", `/api/projects/${id}/members`, { email, role: "viewer" });
    const { emulatorToken } = await import("../test/emulator-tokens");
    const { TEST_PROJECT_ID } = await import("../test/test-app");
    // An emulator token without email_verified: the same address, not proven.
    const raw = emulatorToken(TEST_PROJECT_ID, { uid: `unv-${crypto.randomUUID()}`, email });
    const payload = JSON.parse(Buffer.from(raw.split(".")[1]!, "base64url").toString());
    delete payload.email_verified;
    const token = `${raw.split(".")[0]}.${Buffer.from(JSON.stringify(payload)).toString("base64url")}.`;
    const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
    await t.app.request("/api/auth/sync", { method: "POST", headers, body: JSON.stringify({ id: payload.sub }) });
    expect((await t.app.request(`/api/projects/${id}`, { headers })).status).toBe(404);
    await addMember(owner, id, person("later"), "viewer");
  });

  test("activity: messages sent, restores and secret changes (names only, never values), newest first, for every member to read", async () => {
    const owner = person("own");
    const ed = person("ed");
    const vi = person("vi");
    const id = await sharedProject(owner, { editor: ed, viewer: vi });
    await owner.request("POST", `/api/files/${id}`, { path: "a.txt", content: "one" });
    const version = (await (await owner.request("POST", `/api/projects/${id}/versions`, { label: "v1" })).json()) as { id: string };
    expect((await owner.request("PUT", `/api/projects/${id}/secrets/API_KEY`, { value: "very-secret-value" })).status).toBe(201);
    expect((await owner.request("DELETE", `/api/projects/${id}/secrets/API_KEY`)).status).toBe(204);
    expect((await ed.request("POST", `/api/projects/${id}/versions/${version.id}/restore`)).status).toBe(200);
    const sent = await ed.request("POST", "/api/messages/stream", { projectId: id, content: "Hello" });
    expect(sent.status).toBe(200);
    await sent.text(); // the run ends at once: no model is configured here
    const res = await vi.request("GET", `/api/projects/${id}/activity`);
    const text = await res.text();
    expect(text).not.toContain("very-secret-value");
    const activity = JSON.parse(text) as { kind: string; detail: Record<string, unknown>; actor: { email: string } }[];
    expect(activity.slice(0, 4).map((a) => [a.kind, a.actor.email])).toEqual([
      ["message.sent", emailOf(ed)],
      ["version.restored", emailOf(ed)],
      ["secret.removed", emailOf(owner)],
      ["secret.set", emailOf(owner)],
    ]);
    expect(activity[2]!.detail).toEqual({ name: "API_KEY" });
    expect((await person("str").request("GET", `/api/projects/${id}/activity`)).status).toBe(404);
  });
});
