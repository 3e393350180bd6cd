/**
 * A page served from a project's real sandbox, for the Preview view's tests: a static server started through
 * the shell route, its preview fetched through the app's preview proxy, and the preview frame found in the
 * page by the sandbox's preview host.
 *
 * @example
 * const url = await startServerAndWait(api, app.url, projectId, "Hi preview");
 * const frame = await frameShowing(page, sandboxId, "Hi preview");
 */
import { request } from "node:http";
import { expect } from "bun:test";
import type { ShellResult } from "@shared/schemas/sandbox";
import type { BrowserContext, Frame, Page } from "playwright-core";
import { STEP_MS } from "./stack";

/** Where the app's previews live on the default local set-up: beneath the app's own host, app.localhost. */
const PREVIEW_DOMAIN = "app.localhost";

// A static server on the preview port, in the background so the command returns at once.
const START_SERVER = "nohup python3 -m http.server 5173 --bind 0.0.0.0 >/dev/null 2>&1 &";
// The same server in the foreground: it lives as long as the shell call (at most the 60 s shell timeout).
const HOLD_SERVER = "exec python3 -m http.server 5173 --bind 0.0.0.0 >/dev/null 2>&1";

type Api = <T>(method: string, path: string, body?: unknown) => Promise<T>;

/**
 * GET `path` of the sandbox's preview host through the API's preview proxy, from this process, with `cookie`.
 * Answered without following a redirect, so the enter URL's cookie can be read.
 */
function fetchPreview(appUrl: string, url: string, cookie: string | null, path = "/"): Promise<{ status: number; body: string; setCookie: string[] }> {
  const target = new URL(url);
  const headers = { host: target.host, ...(cookie ? { cookie } : {}) };
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port: Number(new URL(appUrl).port), path, headers, timeout: 5_000 }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (d) => (body += d));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body, setCookie: res.headers["set-cookie"] ?? [] }));
    });
    req.on("error", reject);
    req.on("timeout", () => req.destroy(new Error("timed out")));
    req.end();
  });
}

/**
 * The preview host's cookie, as a signed-in member's browser gets it: a ticket from the API, spent at the host's
 * enter URL. Previews answer nobody without it.
 */
export async function previewCookie(api: Api, appUrl: string, id: string): Promise<string> {
  const { enterUrl } = await api<{ enterUrl: string | null }>("POST", `/api/sandbox/${id}/preview-ticket`);
  if (!enterUrl) throw new Error("no preview ticket: the project has no proxied preview");
  const u = new URL(enterUrl);
  const entered = await fetchPreview(appUrl, enterUrl, null, `${u.pathname}${u.search}&next=%2F`);
  const cookie = entered.setCookie.map((c) => c.split(";")[0]!).find((c) => c.startsWith("__appbuilder_preview="));
  if (entered.status !== 302 || !cookie) throw new Error(`the preview host refused the ticket: ${entered.status}`);
  return cookie;
}

/**
 * Puts the preview host's cookie into a browser context, as the Preview screen's frame would, so tabs of that
 * context can open the preview's pages directly.
 */
export async function givePreviewCookie(context: BrowserContext, api: Api, appUrl: string, id: string): Promise<void> {
  const { url } = await api<{ url: string | null }>("GET", `/api/sandbox/${id}/url`);
  const [name, value] = (await previewCookie(api, appUrl, id)).split(/=(.*)/s) as [string, string];
  await context.addCookies([{ name, value, url: `${url}/`, httpOnly: true, sameSite: "Lax" }]);
}

async function servedWithin(api: Api, appUrl: string, id: string, url: string, text: string, ms: number): Promise<{ ok: boolean; last: string }> {
  const deadline = Date.now() + ms;
  let last = "";
  const cookie = await previewCookie(api, appUrl, id);
  while (Date.now() < deadline) {
    const res = await fetchPreview(appUrl, url, cookie).catch((e) => ({ status: 0, body: String(e) }));
    if (res.status === 200 && res.body.includes(text)) return { ok: true, last };
    last = `${res.status} ${res.body.slice(0, 200)}`;
    await Bun.sleep(200);
  }
  return { ok: false, last };
}

/**
 * Starts the static server in the project's sandbox through the shell route and waits until the preview
 * serves a page with `text`. The background form (`... &`) is tried first; if the server did not outlive its
 * command, that is reported and a foreground server is held by a shell call left pending (ended by its 60 s
 * timeout).
 */
export async function startServerAndWait(api: Api, appUrl: string, id: string, text: string): Promise<string> {
  const started = await api<ShellResult>("POST", `/api/sandbox/${id}/shell`, { command: START_SERVER });
  expect(started.error).toBeNull();
  const { url } = await api<{ url: string | null }>("GET", `/api/sandbox/${id}/url`);
  expect(url).toMatch(/^http:\/\/5173-[a-z0-9]+\.app\.localhost:\d+$/);
  if ((await servedWithin(api, appUrl, id, url!, text, 4_000)).ok) return url!;
  console.warn(
    "[preview e2e] NOTE: a server started in the background (`nohup ... &`) through POST /api/sandbox/{id}/shell " +
      "did not outlive its command in the local sandbox; using a foreground server held by a pending shell call instead.",
  );
  void api("POST", `/api/sandbox/${id}/shell`, { command: HOLD_SERVER }).catch(() => {});
  const held = await servedWithin(api, appUrl, id, url!, text, 20_000);
  if (!held.ok) throw new Error(`the preview never served the page; last answer: ${held.last}`);
  return url!;
}

/** The preview frame, found by its URL (the sandbox's preview host with the cache-busting parameter). */
export async function frameShowing(page: Page, sandboxId: string, text: string, timeoutMs = STEP_MS): Promise<Frame> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const frame = page.frames().find((f) => f.url().startsWith(`http://5173-${sandboxId}.${PREVIEW_DOMAIN}:`) && f.url().includes("_refresh="));
    if (
      frame &&
      (await frame
        .getByText(text)
        .count()
        .catch(() => 0)) > 0
    )
      return frame;
    await Bun.sleep(100);
  }
  throw new Error(
    `no frame of sandbox ${sandboxId} shows "${text}"; frames: ${page
      .frames()
      .map((f) => f.url())
      .join(", ")}`,
  );
}
