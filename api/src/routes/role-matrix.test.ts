/**
 * The role matrix: every project-scoped route of the app's route table (`app.routes`), called as the owner, an
 * editor, a viewer and a stranger, each on a fresh project. A stranger gets 404, a role below the route's need
 * 403 (`forbidden`), a role at or above it passes the check. A route that names a project, a file or a run and
 * has no rule here fails the test, so a new route cannot ship without deciding who may call it. The file-event
 * WebSocket (subscribe: view), the terminal's socket (upgrade: edit) and the preview proxy (view: its ticket, then
 * every request and WebSocket upgrade on the preview host) are in the matrix too.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { WS_PROTOCOL } from "@shared/events/project-events";
import { PTY_PROTOCOL } from "@shared/events/pty-frames";
import { silentLogger } from "../lib/logger";
import type { AccessNeed } from "../lib/project-access";
import { createPtySocket } from "../realtime/pty-socket";
import { createTerminalSessions } from "../services/sandboxes/terminals";
import { appServer } from "../test/app-server";
import { imageForm } from "../test/images";
import { emailOf, sharedProject } from "../test/members";
import { enterPreview } from "../test/preview-access";
import { memoryProvider } from "../test/memory-provider";
import { type TestUser, testApp } from "../test/test-app";

const sandboxes = memoryProvider({ startMs: 0 });
const t = await testApp({ provider: sandboxes.provider });
afterAll(() => t.deps.sandboxes.shutdown());

type Fixture = { id: string; fileId: string; versionId: string; pending: string; editor: TestUser };
type Rule = {
  need: AccessNeed;
  body?: (f: Fixture) => unknown;
  /** Not called for the roles allowed (it would run for tens of seconds: a template install). */
  deniedOnly?: true;
};

// Who may call each project-scoped route. `own` routes: members, transfer, delete, secrets' values.
const RULES: Record<string, Rule> = {
  "GET /api/projects/:id": { need: "view" },
  "DELETE /api/projects/:id": { need: "own" },
  "GET /api/projects/:id/versions": { need: "view" },
  "POST /api/projects/:id/versions": { need: "edit", body: () => ({ label: "Saved" }) },
  "GET /api/projects/:id/versions/before-message/:messageId": { need: "view" },
  "GET /api/projects/:id/versions/:versionId": { need: "view" },
  "GET /api/projects/:id/versions/:versionId/files/:path{.+}": { need: "view" },
  "GET /api/projects/:id/versions/:from/diff/:to": { need: "view" },
  "POST /api/projects/:id/versions/:versionId/restore": { need: "edit" },
  "GET /api/projects/:id/model": { need: "view" },
  "PUT /api/projects/:id/model": { need: "edit", body: () => ({ model: "some-model" }) },
  "GET /api/projects/:id/context": { need: "view" },
  "GET /api/projects/:id/database": { need: "view" },
  "GET /api/projects/:id/database/tables/:table/rows": { need: "view" },
  "POST /api/projects/:id/database/query": { need: "edit", body: () => ({ sql: "select 1" }) },
  "POST /api/projects/:id/publish": { need: "edit", body: () => ({}) },
  "GET /api/projects/:id/publish": { need: "view" },
  "DELETE /api/projects/:id/publish": { need: "edit" },
  "GET /api/projects/:id/deployments": { need: "view" },
  "GET /api/projects/:id/deployments/:deploymentId/logs": { need: "view" },
  "POST /api/projects/:id/deployments/:deploymentId/activate": { need: "edit" },
  "GET /api/projects/:id/secrets": { need: "edit" },
  "PUT /api/projects/:id/secrets/:name": { need: "own", body: () => ({ value: "secret-value-1" }) },
  "DELETE /api/projects/:id/secrets/:name": { need: "own" },
  "POST /api/projects/:id/secrets/:name/decline": { need: "edit" },
  // A loopback URL is refused (400) after the access check: what matters here is that the check came first.
  "GET /api/projects/:id/git": { need: "view" },
  "PUT /api/projects/:id/git": { need: "edit", body: () => ({ url: "https://127.0.0.1/app.git" }) },
  "DELETE /api/projects/:id/git": { need: "edit" },
  "POST /api/projects/:id/git/push": { need: "edit", body: () => ({}) },
  "POST /api/projects/:id/git/pull": { need: "edit" },
  "GET /api/projects/:id/members": { need: "view" },
  "POST /api/projects/:id/members": { need: "own", body: (f) => ({ email: `new-${f.id}@example.com`, role: "viewer" }) },
  "PATCH /api/projects/:id/members/:email": { need: "own", body: () => ({ role: "editor" }) },
  "DELETE /api/projects/:id/members/:email": { need: "own" },
  "POST /api/projects/:id/transfer": { need: "own", body: (f) => ({ email: emailOf(f.editor) }) },
  "GET /api/projects/:id/activity": { need: "view" },
  // Own domains are managed like publishing (edit); verify and delete of a name never added answer 404 "Domain".
  "GET /api/projects/:id/domains": { need: "view" },
  "POST /api/projects/:id/domains": { need: "edit", body: (f) => ({ domain: `shop-${f.id.slice(0, 8)}.example.com` }) },
  "POST /api/projects/:id/domains/:domain/verify": { need: "edit" },
  "DELETE /api/projects/:id/domains/:domain": { need: "edit" },
  // Share links open the preview to anyone holding one: making and revoking them is an editor's (not a viewer's).
  "GET /api/projects/:id/share-links": { need: "edit" },
  "POST /api/projects/:id/share-links": { need: "edit", body: () => ({ expiresInHours: 1 }) },
  "DELETE /api/projects/:id/share-links/:linkId": { need: "edit" },
  "POST /api/sandbox/:projectId/preview-ticket": { need: "view" },
  "GET /api/messages/:projectId": { need: "view" },
  "POST /api/messages/stream": { need: "edit", body: (f) => ({ projectId: f.id, content: "Hello" }) },
  "GET /api/messages/:projectId/active": { need: "view" },
  "POST /api/messages/:projectId/stop": { need: "edit" },
  "GET /api/files/:projectId/download.zip": { need: "view" },
  "GET /api/files/:projectId": { need: "view" },
  "POST /api/files/:projectId": { need: "edit", body: () => ({ path: "new.txt", content: "new" }) },
  "GET /api/files/:projectId/download": { need: "view" },
  "GET /api/files/:projectId/:fileId": { need: "view" },
  "PATCH /api/files/:fileId/content": { need: "edit", body: () => ({ content: "changed" }) },
  "PATCH /api/files/:fileId/rename": { need: "edit", body: () => ({ newPath: "renamed.txt" }) },
  "DELETE /api/files/:fileId": { need: "edit" },
  "GET /api/sandbox/:projectId/url": { need: "view" },
  "GET /api/sandbox/:projectId/validate": { need: "view" },
  "POST /api/sandbox/:projectId/recreate": { need: "edit" },
  "POST /api/sandbox/:projectId/run-workflow": { need: "edit" },
  "POST /api/sandbox/:projectId/template": { need: "edit", body: () => ({ template: "node" }), deniedOnly: true },
  "POST /api/sandbox/:projectId/shell": { need: "edit", body: () => ({ command: "echo hi" }) },
  "GET /api/sandbox/:projectId/problems": { need: "view" },
  "DELETE /api/sandbox/:projectId/problems": { need: "edit" },
  "GET /api/sandbox/:projectId/processes": { need: "view" },
  "POST /api/sandbox/:projectId/processes": { need: "edit", body: () => ({ name: "web", command: "echo hi" }) },
  "POST /api/sandbox/:projectId/processes/:name/restart": { need: "edit" },
  "POST /api/sandbox/:projectId/processes/:name/stop": { need: "edit" },
  "GET /api/sandbox/:projectId/processes/:name/logs": { need: "view" },
  "POST /api/upload/image": { need: "edit", body: (f) => imageForm(f.id) },
};

// Routes that name no project (the caller's own things, sign-in, health) or prove access otherwise.
const NOT_PROJECT_SCOPED = new Set([
  "GET /api/config",
  "GET /api/health",
  "GET /api/ready",
  "POST /api/auth/sync",
  "GET /api/projects",
  "POST /api/projects",
  "GET /api/projects/shared",
  "POST /api/projects/import",
  "GET /api/usage",
  "GET /api/sites",
  // Caddy's on-demand TLS question: names only, public by design.
  "GET /api/tls/ask",
  "GET /api/me",
  // A signed, expiring URL for an <img> (no bearer possible): the signature, made for a member, is the access.
  "GET /api/upload/image/:projectId/:name",
  // A share link's URL: no sign-in, the token is the access, and it opens the preview host alone.
  "GET /api/share/:token",
]);

// The admin routes (/api/admin/...) act on any project or user by the caller being an admin, not a member:
// admin.test.ts holds every one of them, from this same route table, to 404 for everyone else.
const isAdminRoute = (route: string) => route.includes(" /api/admin/");

const routeTable = () => {
  const seen = new Set<string>();
  for (const r of t.app.routes) if (r.method !== "ALL" && !isAdminRoute(`${r.method} ${r.path}`)) seen.add(`${r.method} ${r.path}`);
  return [...seen];
};

async function fixture(): Promise<Fixture & { owner: TestUser; viewer: TestUser; stranger: TestUser }> {
  const [owner, editor, viewer, stranger] = ["own", "ed", "vi", "str"].map((n) => t.user(`${n}${crypto.randomUUID().slice(0, 8)}`)) as [
    TestUser,
    TestUser,
    TestUser,
    TestUser,
  ];
  const id = await sharedProject(owner, { editor, viewer }, "Matrix");
  const file = (await (await owner.request("POST", `/api/files/${id}`, { path: "a.txt", content: "one" })).json()) as { id: string };
  const version = (await (await owner.request("POST", `/api/projects/${id}/versions`, { label: "v1" })).json()) as { id: string };
  const pending = `pending-${id}@example.com`;
  await owner.request("POST", `/api/projects/${id}/members`, { email: pending, role: "viewer" });
  return { id, fileId: file.id, versionId: version.id, pending, owner, editor, viewer, stranger };
}

function pathFor(route: string, f: Fixture): string {
  return route
    .replace(/^\S+ /, "")
    .replace(":path{.+}", "a.txt")
    .replace(/:id\b|:projectId\b/, f.id)
    .replace(":fileId", f.fileId)
    .replace(/:versionId|:from/, f.versionId)
    .replace(":to", "current")
    .replace(":messageId", crypto.randomUUID())
    .replace(":deploymentId", crypto.randomUUID())
    .replace(":linkId", crypto.randomUUID())
    .replace(":table", "items")
    .replace(":email", encodeURIComponent(f.pending))
    .replace(":domain", "shop.example.com")
    .replace(":name", route.includes("/secrets/") ? "API_KEY" : "app");
}

const RANK: Record<AccessNeed, number> = { view: 0, edit: 1, own: 2 };
const ROLES = [
  ["viewer", 0],
  ["editor", 1],
  ["owner", 2],
] as const;

async function call(user: TestUser, route: string, f: Fixture, rule: Rule) {
  const method = route.split(" ")[0]!;
  const res = await user.request(method, pathFor(route, f), rule.body?.(f));
  const text = await res.text().catch(() => "");
  return { status: res.status, text };
}

describe("role matrix", () => {
  test("every project-scoped route in the app's route table has a rule, and no rule names a route that is gone", () => {
    const table = routeTable();
    const unruled = table.filter((r) => !RULES[r] && !NOT_PROJECT_SCOPED.has(r));
    expect(unruled).toEqual([]);
    expect(Object.keys(RULES).filter((r) => !table.includes(r))).toEqual([]);
  });

  for (const [route, rule] of Object.entries(RULES)) {
    test(`${route}: stranger 404, below ${rule.need} 403, at or above it allowed`, async () => {
      const f = await fixture();
      const stranger = await call(f.stranger, route, f, rule);
      expect({ who: "stranger", status: stranger.status }).toEqual({ who: "stranger", status: 404 });
      for (const [role, rank] of ROLES) {
        // Each role on a fresh project: an allowed delete or transfer must not change what the next one finds.
        const g = role === "viewer" ? f : await fixture();
        const user = role === "viewer" ? g.viewer : role === "editor" ? g.editor : g.owner;
        if (rank < RANK[rule.need]) {
          const denied = await call(user, route, g, rule);
          expect({ role, status: denied.status }).toEqual({ role, status: 403 });
          expect(JSON.parse(denied.text).code).toBe("forbidden");
        } else if (!rule.deniedOnly) {
          const allowed = await call(user, route, g, rule);
          expect({ role, status: allowed.status, denied: allowed.status === 403 || allowed.text.includes("Project not found") }).toMatchObject({
            role,
            denied: false,
          });
        }
      }
    }, 60_000);
  }
});

describe("role matrix: the sockets", () => {
  const terminals = createTerminalSessions({ sandboxes: t.deps.sandboxes, logger: silentLogger, idleMs: 0 });
  const pty = createPtySocket({ ...t.deps, terminals });
  const server = appServer(t, { pty, provider: sandboxes.provider });
  afterAll(() => (pty.close(), terminals.closeAll(), server.stop()));

  /** Whether the socket opened (true) or was refused before the upgrade (false). */
  const opens = (url: string, protocols: string[]) =>
    new Promise<boolean>((resolve) => {
      const ws = new WebSocket(url, protocols);
      ws.onopen = () => (resolve(true), ws.close());
      ws.onerror = () => resolve(false);
    });

  const subscribe = (token: string, projectId: string) =>
    new Promise<string>((resolve, reject) => {
      const ws = new WebSocket(`${server.ws}/api/ws`, [WS_PROTOCOL, token]);
      ws.onopen = () => ws.send(JSON.stringify({ type: "subscribe", projectId }));
      ws.onmessage = (m) => (resolve(JSON.parse(String(m.data)).type), ws.close());
      ws.onerror = () => reject(new Error("socket failed"));
    });

  test("the file-event WebSocket: every member may subscribe (view); a stranger is told the project is not found", async () => {
    const f = await fixture();
    for (const user of [f.owner, f.editor, f.viewer]) expect(await subscribe(user.token, f.id)).toBe("subscribed");
    expect(await subscribe(f.stranger.token, f.id)).toBe("error");
  });

  test("the terminal socket: owner and editor get through the upgrade (edit); a viewer is 403 and a stranger 404 before it", async () => {
    const f = await fixture();
    const url = `${server.ws}/api/sandbox/${f.id}/pty`;
    expect(await opens(url, [PTY_PROTOCOL, f.owner.token])).toBe(true);
    expect(await opens(url, [PTY_PROTOCOL, f.editor.token])).toBe(true);
    const upgrade = (token: string) =>
      fetch(`${server.origin}/api/sandbox/${f.id}/pty`, {
        headers: {
          upgrade: "websocket",
          connection: "Upgrade",
          "sec-websocket-key": "dGhlIHNhbXBsZSBub25jZQ==",
          "sec-websocket-version": "13",
          "sec-websocket-protocol": `${PTY_PROTOCOL}, ${token}`,
        },
      });
    expect((await upgrade(f.viewer.token)).status).toBe(403);
    expect((await upgrade(f.stranger.token)).status).toBe(404);
  });

  test("the preview proxy: every member gets a ticket and through the host (view), HTTP and WebSocket upgrade; a stranger, or no cookie, 404", async () => {
    const f = await fixture();
    expect((await f.owner.request("POST", `/api/sandbox/${f.id}/recreate`)).status).toBe(200);
    const { url } = (await (await f.owner.request("GET", `/api/sandbox/${f.id}/url`)).json()) as { url: string };
    const host = `${new URL(url).hostname}:${new URL(server.origin).port}`;
    // The memory sandbox serves nothing on its port: a member gets the proxy's "stopped" page (502), never 404.
    const get = (cookie: string | null, upgrade = false) =>
      fetch(`${server.origin}/`, {
        headers: {
          host,
          ...(cookie ? { cookie } : {}),
          ...(upgrade ? { upgrade: "websocket", connection: "Upgrade", "sec-websocket-key": "dGhlIHNhbXBsZSBub25jZQ==", "sec-websocket-version": "13" } : {}),
        },
      });
    for (const user of [f.owner, f.editor, f.viewer]) {
      const cookie = await enterPreview(server.origin, user, f.id);
      expect(cookie).not.toBeNull();
      expect((await get(cookie)).status).toBe(502);
      expect((await get(cookie, true)).status).toBe(502);
    }
    expect((await f.stranger.request("POST", `/api/sandbox/${f.id}/preview-ticket`)).status).toBe(404);
    expect(await enterPreview(server.origin, f.stranger, f.id)).toBeNull();
    expect((await get(null)).status).toBe(404);
    expect((await get(null, true)).status).toBe(404);
  });
});
