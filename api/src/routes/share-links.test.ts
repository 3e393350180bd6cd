/**
 * Preview access end to end over real HTTP (http-server.ts, the proxy, the API, PostgreSQL or PGlite): members
 * enter a preview with a ticket and lose it the request after they are removed (HTTP and WebSocket upgrade);
 * share links are made by editors, open the preview signed out, list without tokens, stop on revoke or expiry,
 * are in the activity, and their tokens appear in no log line.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { createLogger } from "../lib/logger";
import { PREVIEW_COOKIE } from "../lib/preview-grant";
import type { Sandbox, SandboxProvider } from "../sandbox/types";
import { appServer } from "../test/app-server";
import { emailOf, sharedProject } from "../test/members";
import { memoryProvider } from "../test/memory-provider";
import { cookieFrom, enterPreview, spendEnterUrl } from "../test/preview-access";
import { type TestUser, testApp } from "../test/test-app";

const logLines: string[] = [];
const sandboxes = memoryProvider({ startMs: 0 });
const t = await testApp({ provider: sandboxes.provider, logger: createLogger("debug", (line) => logLines.push(line)) });

// The app in every sandbox, as the proxy reaches it: one page and a WebSocket.
const upstream = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  fetch: (req, server) =>
    server.upgrade(req, { data: undefined }) ? undefined : new Response("<h1>the shared app</h1>", { headers: { "content-type": "text/html" } }),
  websocket: { message: (ws, m) => void ws.send(`echo:${m}`) },
});
const proxyProvider: SandboxProvider = {
  kind: "local",
  connect: async (id) => ({ id, previewTarget: async () => ({ hostname: "127.0.0.1", port: upstream.port }) }) as unknown as Sandbox,
  create: async () => Promise.reject(new Error("unused")),
  shutdown: async () => {},
};
const server = appServer(t, { provider: proxyProvider });
afterAll(async () => {
  server.stop();
  upstream.stop(true);
  await t.deps.sandboxes.shutdown();
});

const port = new URL(server.origin).port;
const user = (n: string) => t.user(`${n}${crypto.randomUUID().slice(0, 6)}`);

/** A project of `owner` with a running (memory) sandbox; its preview host as the browser addresses it. */
async function projectWithPreview(owner: TestUser, members: { editor?: TestUser; viewer?: TestUser } = {}) {
  const id = await sharedProject(owner, members, "Share");
  expect((await owner.request("POST", `/api/sandbox/${id}/recreate`)).status).toBe(200);
  const { url } = (await (await owner.request("GET", `/api/sandbox/${id}/url`)).json()) as { url: string };
  return { id, host: `${new URL(url).hostname}:${port}` };
}

const get = (host: string, cookie: string | null, path = "/") => fetch(`${server.origin}${path}`, { headers: { host, ...(cookie ? { cookie } : {}) } });
const upgrade = (host: string, cookie: string | null) =>
  fetch(`${server.origin}/`, {
    headers: {
      host,
      ...(cookie ? { cookie } : {}),
      upgrade: "websocket",
      connection: "Upgrade",
      "sec-websocket-key": "dGhlIHNhbXBsZSBub25jZQ==",
      "sec-websocket-version": "13",
    },
  });

/** What a signed-out browser does with a link: open it, follow to the enter URL, keep the cookie. */
async function openLink(url: string): Promise<{ status: number; cookie: string | null; location: string | null }> {
  const u = new URL(url);
  const res = await fetch(`${server.origin}${u.pathname}`, { redirect: "manual" });
  const location = res.headers.get("location");
  if (res.status !== 302 || !location) return { status: res.status, cookie: null, location };
  const entered = await spendEnterUrl(server.origin, location);
  return { status: entered.status, cookie: cookieFrom(entered), location: entered.headers.get("location") };
}

describe("preview access for members", () => {
  test("a member enters with a ticket and sees the app; the cookie is HttpOnly, SameSite=Lax, host-only; no cookie, a forged one, or another host's is 404", async () => {
    const [owner, viewer] = [user("own"), user("vi")];
    const p = await projectWithPreview(owner, { viewer });
    const ticket = (await (await viewer.request("POST", `/api/sandbox/${p.id}/preview-ticket`)).json()) as { origin: string; enterUrl: string };
    expect(new URL(ticket.origin).hostname).toBe(p.host.replace(/:\d+$/, ""));
    const entered = await spendEnterUrl(server.origin, `${ticket.enterUrl}&next=${encodeURIComponent("/page?x=1")}`);
    expect(entered.status).toBe(302);
    expect(entered.headers.get("location")).toBe("/page?x=1");
    const set = entered.headers.getSetCookie()[0]!;
    expect(set).toStartWith(`${PREVIEW_COOKIE}=`);
    expect(set).toContain("HttpOnly");
    expect(set).toContain("SameSite=Lax");
    expect(set.toLowerCase()).not.toContain("domain=");
    const cookie = cookieFrom(entered)!;
    // In a frame (the Preview screen), on *.localhost: the cross-site frame's kind of cookie, kept to its top site.
    const framed = (await (await viewer.request("POST", `/api/sandbox/${p.id}/preview-ticket`)).json()) as { enterUrl: string };
    const framedSet = (await spendEnterUrl(server.origin, `${framed.enterUrl}&next=%2F`, { "sec-fetch-dest": "iframe" })).headers.getSetCookie()[0]!;
    expect(framedSet).toContain("HttpOnly; SameSite=None; Secure; Partitioned");
    const page = await get(p.host, cookie);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("the shared app");

    expect((await get(p.host, null)).status).toBe(404);
    expect(await (await get(p.host, null)).text()).toContain("There is no such preview");
    expect((await get(p.host, `${PREVIEW_COOKIE}=forged.token.here`)).status).toBe(404);
    // The ticket is spent for a cookie, never taken as one, and is refused on another preview host.
    expect((await get(p.host, `${PREVIEW_COOKIE}=${new URL(ticket.enterUrl).searchParams.get("ticket")}`)).status).toBe(404);
    const other = await projectWithPreview(owner);
    expect((await get(other.host, cookie)).status).toBe(404);
    const wrongHost = new URL(ticket.enterUrl);
    wrongHost.host = other.host;
    expect((await spendEnterUrl(server.origin, wrongHost.toString())).status).toBe(404);
  });

  test("next never leaves the preview host", async () => {
    const owner = user("own");
    const p = await projectWithPreview(owner);
    for (const next of ["https://evil.example/", "//evil.example/", "/\\evil.example", "javascript:alert(1)"]) {
      const { enterUrl } = (await (await owner.request("POST", `/api/sandbox/${p.id}/preview-ticket`)).json()) as { enterUrl: string };
      const res = await spendEnterUrl(server.origin, `${enterUrl}&next=${encodeURIComponent(next)}`);
      expect({ next, location: res.headers.get("location") }).toEqual({ next, location: "/" });
    }
  });

  test("a removed member gets 404 on their next request, HTTP and WebSocket upgrade alike", async () => {
    const [owner, editor] = [user("own"), user("ed")];
    const p = await projectWithPreview(owner, { editor });
    const cookie = await enterPreview(server.origin, editor, p.id);
    expect((await get(p.host, cookie)).status).toBe(200);
    const ws = new WebSocket(`ws://127.0.0.1:${port}/`, { headers: { host: p.host, cookie } } as never);
    expect(await new Promise((resolve) => ((ws.onopen = () => resolve("open")), (ws.onerror = () => resolve("refused"))))).toBe("open");
    ws.close();
    expect((await owner.request("DELETE", `/api/projects/${p.id}/members/${encodeURIComponent(emailOf(editor))}`)).status).toBe(204);
    expect((await get(p.host, cookie)).status).toBe(404);
    expect((await upgrade(p.host, cookie)).status).toBe(404);
    // The owner's own cookie still works.
    expect((await get(p.host, await enterPreview(server.origin, owner, p.id))).status).toBe(200);
  });
});

describe("share links", () => {
  test("an editor makes a link; signed out it opens the preview and nothing else; the list shows no token; revoke: 404 on the next request", async () => {
    const [owner, editor, viewer] = [user("own"), user("ed"), user("vi")];
    const p = await projectWithPreview(owner, { editor, viewer });
    const made = await editor.request("POST", `/api/projects/${p.id}/share-links`, { expiresInHours: 24 });
    expect(made.status).toBe(201);
    const link = (await made.json()) as { id: string; url: string; expiresAt: string };
    const token = link.url.split("/").pop()!;
    expect(Buffer.from(token, "base64url").length).toBeGreaterThanOrEqual(16);
    expect(link.url).toStartWith(`${new URL(server.origin).protocol}`);
    expect(Math.abs(Date.parse(link.expiresAt) - Date.now() - 24 * 3600_000)).toBeLessThan(60_000);
    expect((await viewer.request("POST", `/api/projects/${p.id}/share-links`, {})).status).toBe(403);

    const opened = await openLink(link.url);
    expect(opened).toMatchObject({ status: 302, location: "/" });
    expect(await (await get(p.host, opened.cookie)).text()).toContain("the shared app");
    expect((await upgrade(p.host, opened.cookie)).status).toBe(101);
    // The token opens the preview alone: the API still wants a signed-in member.
    for (const path of [`/api/projects/${p.id}`, `/api/files/${p.id}`, `/api/messages/${p.id}`]) {
      expect((await fetch(`${server.origin}${path}`, { headers: { authorization: `Bearer ${token}`, cookie: opened.cookie! } })).status).toBe(401);
    }

    const list = await (await owner.request("GET", `/api/projects/${p.id}/share-links`)).text();
    expect(JSON.parse(list)).toEqual([{ id: link.id, createdAt: expect.any(String), expiresAt: link.expiresAt, createdBy: expect.any(String) }]);
    expect(list).not.toContain(token);

    expect((await owner.request("DELETE", `/api/projects/${p.id}/share-links/${link.id}`)).status).toBe(204);
    expect((await get(p.host, opened.cookie)).status).toBe(404);
    expect((await upgrade(p.host, opened.cookie)).status).toBe(404);
    expect((await openLink(link.url)).status).toBe(404);
    expect((await owner.request("DELETE", `/api/projects/${p.id}/share-links/${link.id}`)).status).toBe(404);
    expect(await (await owner.request("GET", `/api/projects/${p.id}/share-links`)).json()).toEqual([]);

    const activity = (await (await owner.request("GET", `/api/projects/${p.id}/activity`)).json()) as { kind: string; actor: { email: string } }[];
    expect(activity.filter((a) => a.kind.startsWith("share_link.")).map((a) => [a.kind, a.actor.email])).toEqual([
      ["share_link.revoked", emailOf(owner)],
      ["share_link.created", emailOf(editor)],
    ]);
  });

  test("an expired link answers 404, and so does the preview it had opened", async () => {
    const owner = user("own");
    const p = await projectWithPreview(owner);
    const link = (await (await owner.request("POST", `/api/projects/${p.id}/share-links`, {})).json()) as { id: string; url: string; expiresAt: null };
    expect(link.expiresAt).toBeNull();
    const opened = await openLink(link.url);
    expect((await get(p.host, opened.cookie)).status).toBe(200);
    await t.deps.sql`update share_links set expires_at = now() - interval '1 second' where id = ${link.id}`;
    expect((await get(p.host, opened.cookie)).status).toBe(404);
    expect((await openLink(link.url)).status).toBe(404);
    expect((await fetch(`${server.origin}/api/share/not-a-real-token-at-all-000000`)).status).toBe(404);
  });

  test("a link to a sleeping project starts its sandbox on the owner's account", async () => {
    const owner = user("own");
    const p = await projectWithPreview(owner);
    const link = (await (await owner.request("POST", `/api/projects/${p.id}/share-links`, {})).json()) as { url: string };
    const before = (await (await owner.request("GET", `/api/sandbox/${p.id}/url`)).json()) as { url: string };
    for (const id of [...sandboxes.live.keys()]) await sandboxes.live.get(id)!.kill();
    const opened = await fetch(`${server.origin}${new URL(link.url).pathname}`, { redirect: "manual" });
    expect(opened.status).toBe(302);
    const after = (await (await owner.request("GET", `/api/sandbox/${p.id}/url`)).json()) as { url: string };
    expect(after.url).not.toBe(before.url);
    expect(new URL(opened.headers.get("location")!).hostname).toBe(new URL(after.url).hostname);
  });

  test("bad bodies are 400; a link token appears in no log line", async () => {
    const owner = user("own");
    const p = await projectWithPreview(owner);
    for (const body of [{ expiresInHours: 0 }, { expiresInHours: 1.5 }, { expiresInHours: "24" }, { expiresInHours: 24 * 366 }]) {
      expect((await owner.request("POST", `/api/projects/${p.id}/share-links`, body)).status).toBe(400);
    }
    logLines.length = 0;
    const link = (await (await owner.request("POST", `/api/projects/${p.id}/share-links`, { expiresInHours: 1 })).json()) as { id: string; url: string };
    const token = link.url.split("/").pop()!;
    const opened = await openLink(link.url);
    await get(p.host, opened.cookie);
    await owner.request("DELETE", `/api/projects/${p.id}/share-links/${link.id}`);
    await openLink(link.url);
    await get(p.host, opened.cookie);
    expect(logLines.some((l) => l.includes("/api/share/[token]"))).toBe(true);
    expect(logLines.filter((l) => l.includes(token))).toEqual([]);
  });
});
