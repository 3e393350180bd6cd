/**
 * Attack replayed: on the default local set-up previews are subdomains of the app's host
 * (`<port>-<id>.app.localhost`, one site with `app.localhost`, as previews under PUBLIC_URL's host are in
 * production), so the frame gets first-party storage. Code in a preview (anyone's app, a share link's visitor
 * runs it too) then tries to read what it must not: the app's localStorage and cookies, the app's document
 * (also after `document.domain = "app.localhost"`), the app's API with the user's credentials, and another
 * project's preview storage.
 * Safe outcome, in real Chromium against the real app's responses and the real preview proxy: every read fails
 * or comes back empty; the app's API answers the same-site request without a bearer token 401 (the app signs in
 * with bearer tokens, never cookies); each preview keeps storage of its own that works.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, BrowserContext, Frame, Page } from "playwright-core";
import { launchBrowser, newOfflineContext } from "../e2e/support/browser";
import { freePort } from "../e2e/support/free-port";
import { createApp } from "../api/src/app";
import { createMemoryBus } from "../api/src/events/memory-bus";
import { serveHttp } from "../api/src/http-server";
import { LOCAL_APP_HOST } from "../api/src/lib/config/preview";
import { silentLogger } from "../api/src/lib/logger";
import { createPreviewProxy } from "../api/src/realtime/preview-proxy";
import { createWsHub } from "../api/src/realtime/ws-hub";
import type { Sandbox, SandboxProvider } from "../api/src/sandbox/types";
import { openPreviewAccess } from "../api/src/test/preview-access";
import { testApp } from "../api/src/test/test-app";

const A = "aaaaaaaa11111111";
const B = "bbbbbbbb22222222";
const SECRET = "the-apps-secret";

let port: number;
let upstream: ReturnType<typeof Bun.serve>;
let front: ReturnType<typeof serveHttp>;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let webDist: string;

const appOrigin = () => `http://${LOCAL_APP_HOST}:${port}`;
const previewOrigin = (id: string) => `http://5173-${id}.${LOCAL_APP_HOST}:${port}`;
const frameOf = (id: string): Frame => {
  const f = page.frames().find((fr) => fr.url().startsWith(previewOrigin(id)));
  if (!f) throw new Error(`no frame of preview ${id}; frames: ${page.frames().map((fr) => fr.url())}`);
  return f;
};

beforeAll(async () => {
  port = await freePort();
  // The hostile app in each sandbox: a plain page; what it runs is what the test evaluates in its frame.
  upstream = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: () => new Response("<!doctype html><title>preview</title><h1>a preview</h1>", { headers: { "content-type": "text/html" } }),
  });
  const t = await testApp({ env: { PORT: String(port) } });
  expect(t.deps.config.preview.domain).toBe(LOCAL_APP_HOST); // the default local set-up
  webDist = mkdtempSync(join(tmpdir(), "dist-"));
  writeFileSync(join(webDist, "index.html"), "<!doctype html><title>App Builder</title><h1>the app</h1>");
  const app = createApp({ ...t.deps, webDist });

  const sandbox = (id: string) => ({ id, previewTarget: async () => ({ hostname: "127.0.0.1", port: upstream.port }) }) as unknown as Sandbox;
  const provider = { kind: "local", connect: async (id: string) => ([A, B].includes(id) ? sandbox(id) : null) } as unknown as SandboxProvider;
  const access = openPreviewAccess();
  const preview = createPreviewProxy({ provider, domain: t.deps.config.preview.domain, logger: silentLogger, ...access.proxy });
  const hub = createWsHub({
    sql: null as never,
    store: null as never,
    logger: silentLogger,
    events: createMemoryBus(),
    verifyToken: async () => Promise.reject(new Error("unused")),
  });
  front = serveHttp({ port, hostname: "127.0.0.1", fetch: (req) => app.fetch(req), hub, preview });

  browser = await launchBrowser();
  context = await newOfflineContext(browser);
  // Each preview host's access cookie, host-only, as the enter URL sets it.
  for (const id of [A, B]) {
    const [name, value] = (await access.cookie(new URL(previewOrigin(id)).host)).split(/=(.*)/s) as [string, string];
    await context.addCookies([{ name, value, url: `${previewOrigin(id)}/`, httpOnly: true, sameSite: "Lax" }]);
  }
  page = await context.newPage();
  await page.goto(`${appOrigin()}/`);
  // What a signed-in app holds in its origin's storage, and the worst case of a cookie of its own.
  await page.evaluate((s) => {
    localStorage.setItem("app-token", s);
    document.cookie = `app_session=${s}; path=/`;
  }, SECRET);
  // Both previews framed by the app, as the Preview screen frames one (same sandbox attribute).
  await page.evaluate(
    (srcs) =>
      Promise.all(
        srcs.map(
          (src) =>
            new Promise((resolve) => {
              const f = document.createElement("iframe");
              f.setAttribute("sandbox", "allow-forms allow-modals allow-popups allow-popups-to-escape-sandbox allow-same-origin allow-scripts allow-downloads");
              f.onload = resolve;
              f.src = src;
              document.body.append(f);
            }),
        ),
      ),
    [`${previewOrigin(A)}/`, `${previewOrigin(B)}/`],
  );
}, 120_000);

afterAll(async () => {
  await browser?.close();
  front?.stop(true);
  upstream?.stop(true);
  if (webDist) rmSync(webDist, { recursive: true, force: true });
});

describe("preview storage, same site as the app", () => {
  test("each framed preview has working first-party storage of its own", async () => {
    for (const id of [A, B]) {
      const got = await frameOf(id).evaluate((me) => {
        localStorage.setItem("mine", me);
        document.cookie = `mine=${me}; path=/`;
        return { ls: localStorage.getItem("mine"), cookie: document.cookie };
      }, id);
      expect(got).toEqual({ ls: id, cookie: `mine=${id}` });
    }
  });

  test("a preview reads none of the app's localStorage, cookies or document, even after setting document.domain", async () => {
    const seen = await frameOf(A).evaluate(() => {
      const attempt = (f: () => unknown) => {
        try {
          return String(f());
        } catch (e) {
          return `blocked: ${(e as Error).name}`;
        }
      };
      return {
        ownLocalStorage: localStorage.getItem("app-token"),
        cookie: document.cookie,
        parentLocalStorage: attempt(() => window.parent.localStorage.getItem("app-token")),
        parentDocument: attempt(() => window.parent.document.cookie),
        afterDocumentDomain: attempt(() => {
          document.domain = "app.localhost";
          return window.parent.localStorage.getItem("app-token");
        }),
      };
    });
    expect(seen.ownLocalStorage).toBeNull();
    expect(seen.cookie).not.toContain(SECRET);
    expect(seen.cookie).not.toContain("__appbuilder_preview"); // HttpOnly: the access cookie is the proxy's alone
    expect(seen.parentLocalStorage).toStartWith("blocked: SecurityError");
    expect(seen.parentDocument).toStartWith("blocked: SecurityError");
    expect(seen.afterDocumentDomain).toStartWith("blocked: SecurityError");
  });

  test("a preview cannot use the app's API as the user: no readable answer, and cookies alone are 401", async () => {
    const answer = await frameOf(A).evaluate(
      (url) =>
        fetch(url, { credentials: "include" }).then(
          async (r) => `read ${r.status}: ${await r.text()}`,
          (e: Error) => `blocked: ${e.name}`,
        ),
      `${appOrigin()}/api/projects`,
    );
    expect(answer).toBe("blocked: TypeError"); // no CORS for preview origins
    // Even a same-site request carrying every cookie the browser holds for the app gets nothing: the API signs
    // in with the bearer token in the SPA's memory and IndexedDB, never with a cookie.
    const cookies = (await context.cookies(appOrigin())).map((c) => `${c.name}=${c.value}`).join("; ");
    expect(cookies).toContain(SECRET);
    const res = await fetch(`http://127.0.0.1:${port}/api/projects`, { headers: { host: `${LOCAL_APP_HOST}:${port}`, cookie: cookies } });
    expect(res.status).toBe(401);
    expect(res.headers.getSetCookie()).toEqual([]);
  });

  test("previews of two projects cannot read each other's localStorage or cookies", async () => {
    await frameOf(A).evaluate(() => {
      localStorage.setItem("a-private", "only A");
      document.cookie = "a_private=only-A; path=/";
    });
    const seenByB = await frameOf(B).evaluate(() => {
      let sibling: string;
      try {
        sibling = String(window.parent.frames[0]!.localStorage.getItem("a-private"));
      } catch (e) {
        sibling = `blocked: ${(e as Error).name}`;
      }
      return { own: localStorage.getItem("a-private"), cookie: document.cookie, sibling };
    });
    expect(seenByB.own).toBeNull();
    expect(seenByB.cookie).not.toContain("only-A");
    expect(seenByB.sibling).toStartWith("blocked: SecurityError");
    // And the app's page cannot read a preview's storage either.
    const seenByApp = await page.evaluate(() => {
      try {
        return String(window.frames[0]!.localStorage.getItem("a-private"));
      } catch (e) {
        return `blocked: ${(e as Error).name}`;
      }
    });
    expect(seenByApp).toStartWith("blocked: SecurityError");
  });
});
