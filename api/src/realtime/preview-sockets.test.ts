/**
 * Preview sockets already open when access ends, through the real server (http-server.ts, the proxy, the API,
 * PostgreSQL or PGlite): a removed member's app socket (as Vite's HMR) and page watch socket close at once with
 * 4404, while another member's stay open and keep working; a revoked share link's sockets close the same way;
 * a role change that keeps the member in the project keeps their sockets.
 */
import { afterAll, describe, expect, test } from "bun:test";
import type { Sandbox, SandboxProvider } from "../sandbox/types";
import { appServer } from "../test/app-server";
import { emailOf, sharedProject } from "../test/members";
import { memoryProvider } from "../test/memory-provider";
import { cookieFrom, enterPreview, spendEnterUrl } from "../test/preview-access";
import { type TestUser, testApp } from "../test/test-app";
import { WATCH_PATH } from "./preview-reporter/inject";
import { PREVIEW_ACCESS_ENDED_CLOSE } from "./preview-sockets";

const t = await testApp({ provider: memoryProvider({ startMs: 0 }).provider });
// The app in every sandbox: a WebSocket that echoes, as an HMR server answers.
const upstream = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  fetch: (req, server) => (server.upgrade(req, { data: undefined }) ? undefined : new Response("<p>app</p>", { headers: { "content-type": "text/html" } })),
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

async function projectWithPreview(owner: TestUser, members: { editor?: TestUser; viewer?: TestUser }) {
  const id = await sharedProject(owner, members, "Live preview");
  expect((await owner.request("POST", `/api/sandbox/${id}/recreate`)).status).toBe(200);
  const { url } = (await (await owner.request("GET", `/api/sandbox/${id}/url`)).json()) as { url: string };
  return { id, host: `${new URL(url).hostname}:${port}` };
}

/** An open socket on the preview host with the cookie, and the code it closes with (null while open). */
async function openSocket(host: string, cookie: string, path = "/") {
  const ws = new WebSocket(`${server.ws}${path}`, { headers: { host, cookie } } as never);
  const state = { closedWith: null as number | null };
  const closed = new Promise<number>((resolve) => ws.addEventListener("close", (e) => resolve((state.closedWith = e.code))));
  await new Promise((resolve, reject) => ((ws.onopen = resolve), (ws.onerror = () => reject(new Error(`${path} did not open`)))));
  return { ws, state, closed };
}

const echo = (ws: WebSocket) =>
  new Promise<string>((resolve) => {
    ws.onmessage = (e) => resolve(String(e.data));
    ws.send("ping");
  });

/** Resolves with the close code, or "still open" after `ms`. */
const closeWithin = (s: { closed: Promise<number> }, ms = 3_000) => Promise.race([s.closed, Bun.sleep(ms).then(() => "still open" as const)]);

describe("preview sockets when access ends", () => {
  test("a removed member's app socket and page watch socket close at once; another member's keep working", async () => {
    const [owner, editor, viewer] = [user("own"), user("ed"), user("vi")];
    const p = await projectWithPreview(owner, { editor, viewer });
    const editorCookie = (await enterPreview(server.origin, editor, p.id))!;
    const viewerCookie = (await enterPreview(server.origin, viewer, p.id))!;
    expect(editorCookie && viewerCookie).toBeTruthy();
    const hmr = await openSocket(p.host, editorCookie);
    const page = await openSocket(p.host, editorCookie, WATCH_PATH);
    const other = await openSocket(p.host, viewerCookie);
    expect(await echo(hmr.ws)).toBe("echo:ping");

    // Made a viewer: still in the project, so nothing closes.
    expect((await owner.request("PATCH", `/api/projects/${p.id}/members/${emailOf(editor)}`, { role: "viewer" })).status).toBe(200);
    expect(await closeWithin(hmr, 300)).toBe("still open");

    expect((await owner.request("DELETE", `/api/projects/${p.id}/members/${emailOf(editor)}`)).status).toBe(204);
    expect(await closeWithin(hmr)).toBe(PREVIEW_ACCESS_ENDED_CLOSE);
    expect(await closeWithin(page)).toBe(PREVIEW_ACCESS_ENDED_CLOSE);
    expect(other.state.closedWith).toBeNull();
    expect(await echo(other.ws)).toBe("echo:ping");
    // And a new socket for the removed member is refused at the upgrade, as before.
    await expect(openSocket(p.host, editorCookie)).rejects.toThrow();
    other.ws.close();
  });

  test("a revoked share link's sockets close at once; a second link's stay open", async () => {
    const owner = user("own");
    const p = await projectWithPreview(owner, {});
    const enterWith = async () => {
      const made = (await (await owner.request("POST", `/api/projects/${p.id}/share-links`, {})).json()) as { id: string; url: string };
      const opened = await fetch(`${server.origin}${new URL(made.url).pathname}`, { redirect: "manual" });
      const cookie = cookieFrom(await spendEnterUrl(server.origin, opened.headers.get("location")!));
      expect(cookie).toBeTruthy();
      return { id: made.id, cookie: cookie! };
    };
    const [revoked, kept] = [await enterWith(), await enterWith()];
    const hmr = await openSocket(p.host, revoked.cookie);
    const page = await openSocket(p.host, revoked.cookie, WATCH_PATH);
    const other = await openSocket(p.host, kept.cookie, WATCH_PATH);

    expect((await owner.request("DELETE", `/api/projects/${p.id}/share-links/${revoked.id}`)).status).toBe(204);
    expect(await closeWithin(hmr)).toBe(PREVIEW_ACCESS_ENDED_CLOSE);
    expect(await closeWithin(page)).toBe(PREVIEW_ACCESS_ENDED_CLOSE);
    expect(await closeWithin(other, 300)).toBe("still open");
    other.ws.close();
  });
});
