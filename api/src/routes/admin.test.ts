/**
 * The admin routes (issue 24, item 8): every route under /api/admin, taken from the app's route table, answers
 * 404 to everyone who is not an admin; an admin lists users, running sandboxes and sites, stops a sandbox, and
 * disables a user, whose next request is 403 with the message, whose sandbox stops and whose WebSocket closes.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { WS_PROTOCOL } from "@shared/events/project-events";
import { INSTANCE_ID as INSTANCE } from "../lib/instance";
import { ACCOUNT_DISABLED_CLOSE } from "../realtime/ws-hub";
import { DISABLED_MESSAGE } from "../services/users";
import { appServer } from "../test/app-server";
import { emulatorToken } from "../test/emulator-tokens";
import { memoryProvider } from "../test/memory-provider";
import { TEST_PROJECT_ID, type TestUser, testApp } from "../test/test-app";

const memory = memoryProvider({ startMs: 0 });
const t = await testApp({ provider: memory.provider, env: { ADMIN_EMAILS: "Boss@Example.com, other-admin@example.com" } });
afterAll(() => t.deps.sandboxes.shutdown());

const boss = t.user("boss");
const adminRoutes = () => {
  const seen = new Set<string>();
  for (const r of t.app.routes) if (r.method !== "ALL" && r.path.startsWith("/api/admin/")) seen.add(`${r.method} ${r.path}`);
  return [...seen];
};
const call = (route: string, headers: Record<string, string>) => {
  const [method, path] = route.split(" ") as [string, string];
  return t.app.request(path.replace(/:[a-zA-Z]+/g, crypto.randomUUID()), { method, headers });
};
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function project(user: TestUser, name = "Admin test"): Promise<string> {
  return ((await (await user.request("POST", "/api/projects", { name })).json()) as { id: string }).id;
}
async function startSandbox(user: TestUser, projectId: string): Promise<string> {
  const res = await user.request("POST", `/api/sandbox/${projectId}/recreate`);
  expect(res.status).toBe(200);
  const [row] = await t.db.sql<{ sandboxId: string }[]>`select sandbox_id as "sandboxId" from projects where id = ${projectId}`;
  return row!.sandboxId;
}

describe("who may call the admin routes", () => {
  test("the route table has the admin routes (so the next test covers every one, a new one included)", () => {
    expect(adminRoutes()).toEqual(
      expect.arrayContaining(["GET /api/admin/users", "GET /api/admin/running", "GET /api/admin/sites", "POST /api/admin/users/:userId/disable"]),
    );
    expect(adminRoutes().length).toBeGreaterThanOrEqual(7);
  });

  test("every admin route: 404 signed out, with a bad token, for a signed-in user, and for an admin's address unverified", async () => {
    const stranger = t.user("stranger");
    const unverified = emulatorToken(TEST_PROJECT_ID, { uid: `fake-${crypto.randomUUID()}`, email: "boss@example.com", emailVerified: false });
    for (const route of adminRoutes()) {
      for (const [who, headers] of [
        ["signed out", {}],
        ["bad token", bearer("not-a-token")],
        ["user", bearer(stranger.token)],
        ["unverified admin address", bearer(unverified)],
      ] as const) {
        const res = await call(route, headers);
        expect({ route, who, status: res.status }).toEqual({ route, who, status: 404 });
        expect(await res.json()).toEqual({ error: "API route not found", code: "not_found" });
      }
    }
  });

  test("GET /api/me says who is an admin (ADMIN_EMAILS matched without regard to case)", async () => {
    expect(await (await boss.request("GET", "/api/me")).json()).toEqual({ id: boss.uid, email: "boss@example.com", admin: true });
    const someone = t.user("someone");
    expect(await (await someone.request("GET", "/api/me")).json()).toMatchObject({ admin: false });
    expect((await t.app.request("/api/me")).status).toBe(401);
  });
});

describe("what an admin sees and does", () => {
  test("users: their projects, this month's tokens and last sign-in (recorded by the sign-in sync)", async () => {
    const ann = t.user("ann");
    await ann.request("POST", "/api/auth/sync", { id: ann.uid });
    const id = await project(ann, "Ann's shop");
    await t.db.sql`insert into user_token_usage (user_id, month, tokens) values (${ann.uid}, (date_trunc('month', now() at time zone 'utc'))::date, 1234)`;
    const users = (await (await boss.request("GET", "/api/admin/users")).json()) as { id: string }[];
    expect(users.find((u) => u.id === ann.uid)).toMatchObject({
      email: "ann@example.com",
      tokensThisMonth: 1234,
      projects: [{ id, name: "Ann's shop" }],
      lastSignInAt: expect.any(String),
      disabledAt: null,
    });
  });

  test("running: a started sandbox is listed with this instance; stopping it kills it and ends its lease", async () => {
    const bob = t.user("bob");
    const id = await project(bob);
    const sandboxId = await startSandbox(bob, id);
    const running = (await (await boss.request("GET", "/api/admin/running")).json()) as { instance: string; sandboxes: { projectId: string }[] };
    expect(running.instance).toBe(INSTANCE);
    expect(running.sandboxes.find((s) => s.projectId === id)).toMatchObject({ sandboxId, instance: INSTANCE, ownerEmail: "bob@example.com" });
    const res = await boss.request("POST", `/api/admin/sandboxes/${id}/stop`);
    expect(await res.json()).toEqual({ stopped: true });
    expect(memory.killed).toContain(sandboxId);
    const after = (await (await boss.request("GET", "/api/admin/running")).json()) as { sandboxes: { projectId: string }[] };
    expect(after.sandboxes.some((s) => s.projectId === id)).toBe(false);
    expect((await boss.request("POST", `/api/admin/sandboxes/${crypto.randomUUID()}/stop`)).status).toBe(404);
  });

  test("an admin cannot disable themselves (400, with the reason); an unknown user is 404", async () => {
    const res = await boss.request("POST", `/api/admin/users/${boss.uid}/disable`);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: "You cannot disable your own account.", code: "bad_request" });
    expect((await boss.request("GET", "/api/projects")).status).toBe(200);
    expect((await boss.request("POST", "/api/admin/users/nobody-at-all/disable")).status).toBe(404);
  });

  test("disable: the user's next request is 403 with the message, their sandbox stops, their WebSocket closes; enable lets them back", async () => {
    const cat = t.user("cat");
    const id = await project(cat);
    const sandboxId = await startSandbox(cat, id);
    const server = appServer(t);
    try {
      const ws = new WebSocket(`${server.ws}/api/ws`, [WS_PROTOCOL, cat.token]);
      const closed = new Promise<number>((resolve) => (ws.onclose = (e) => resolve(e.code)));
      await new Promise((resolve) => (ws.onopen = resolve));

      expect(await (await boss.request("POST", `/api/admin/users/${cat.uid}/disable`)).json()).toEqual({ ok: true });
      const refused = await cat.request("GET", "/api/projects");
      expect(refused.status).toBe(403);
      expect(await refused.json()).toEqual({ error: DISABLED_MESSAGE, code: "forbidden" });
      expect(memory.killed).toContain(sandboxId);
      expect(await closed).toBe(ACCOUNT_DISABLED_CLOSE);
      // A new socket is refused at the upgrade.
      const upgrade = await fetch(`${server.origin}/api/ws`, {
        headers: {
          upgrade: "websocket",
          connection: "Upgrade",
          "sec-websocket-key": "dGhlIHNhbXBsZSBub25jZQ==",
          "sec-websocket-version": "13",
          "sec-websocket-protocol": `${WS_PROTOCOL}, ${cat.token}`,
        },
      });
      expect(upgrade.status).toBe(403);
      const users = (await (await boss.request("GET", "/api/admin/users")).json()) as { id: string; disabledAt: string | null }[];
      expect(users.find((u) => u.id === cat.uid)?.disabledAt).toEqual(expect.any(String));

      expect(await (await boss.request("POST", `/api/admin/users/${cat.uid}/enable`)).json()).toEqual({ ok: true });
      expect((await cat.request("GET", "/api/projects")).status).toBe(200);
    } finally {
      server.stop();
    }
  });

  test("an admin another admin disabled is refused too (403), not shown the routes' 404", async () => {
    const other = t.user("other-admin");
    expect((await other.request("GET", "/api/admin/users")).status).toBe(200);
    await boss.request("POST", `/api/admin/users/${other.uid}/disable`);
    expect((await other.request("GET", "/api/admin/users")).status).toBe(403);
    await boss.request("POST", `/api/admin/users/${other.uid}/enable`);
  });

  test("sites: the live ones, with their address", async () => {
    const dan = t.user("dan");
    const id = await project(dan, "Dan's site");
    const deploymentId = crypto.randomUUID();
    await t.db.sql`insert into deployments (id, project_id, state, finished_at) values (${deploymentId}, ${id}, 'ready', now())`;
    await t.db.sql`insert into sites (project_id, slug, live_deployment_id) values (${id}, ${`dan-${id.slice(0, 8)}`}, ${deploymentId})`;
    const sites = (await (await boss.request("GET", "/api/admin/sites")).json()) as { projectId: string; url: string }[];
    expect(sites.find((s) => s.projectId === id)).toMatchObject({
      projectName: "Dan's site",
      ownerEmail: "dan@example.com",
      url: expect.stringContaining(`dan-${id.slice(0, 8)}.`),
    });
  });
});
