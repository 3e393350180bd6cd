/**
 * A preview that never dead-ends (issue 27, item 2), in real Chromium against the real preview proxy: a frame
 * showing "Nothing is answering" (the app starting, restarting after a restore or undo, or recovering from a
 * crash) loads the app by itself as soon as it answers, with no refresh pressed. The sandbox is a stand-in
 * whose port is switched from nothing listening to a live server; the proxy, the page and the browser are real.
 * Screenshot: e2e/artifacts/preview-waiting.png.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { createMemoryBus } from "../api/src/events/memory-bus";
import { serveHttp } from "../api/src/http-server";
import { silentLogger } from "../api/src/lib/logger";
import { createPreviewProxy } from "../api/src/realtime/preview-proxy";
import { createWsHub } from "../api/src/realtime/ws-hub";
import type { Sandbox, SandboxProvider } from "../api/src/sandbox/types";
import { openPreviewAccess } from "../api/src/test/preview-access";
import { launchBrowser, newOfflineContext } from "./support/browser";
import { ARTIFACTS } from "./support/stack";

let browser: Browser;
let app: ReturnType<typeof Bun.serve> | null = null;
let front: ReturnType<typeof serveHttp>;
let shell: ReturnType<typeof Bun.serve>;
/** The sandbox's port 5173: nothing (port 1 refuses) until the app is started. */
let appPort = 1;

beforeAll(async () => {
  const sandbox = { id: "recovery12345678", previewTarget: async () => ({ hostname: "127.0.0.1", port: appPort }) } as unknown as Sandbox;
  const provider = {
    kind: "local",
    connect: async (id: string) => (id === sandbox.id ? sandbox : null),
    create: async () => sandbox,
    shutdown: async () => {},
  } as SandboxProvider;
  const access = openPreviewAccess();
  const preview = createPreviewProxy({ provider, domain: "localhost", logger: silentLogger, ...access.proxy });
  const hub = createWsHub({
    sql: null as never,
    store: null as never,
    logger: silentLogger,
    events: createMemoryBus(),
    verifyToken: async () => {
      throw new Error("unused");
    },
  });
  front = serveHttp({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("the app builder"), hub, preview });
  // The Preview screen's part: a page that frames the preview, entering it with a ticket as the SPA does (on
  // localhost, the previews' own site, so the host's SameSite=Lax cookie goes with the frame's requests).
  const host = "5173-recovery12345678.localhost";
  shell = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: async () =>
      new Response(
        `<!doctype html><body style="margin:0"><iframe id="preview" src="http://${host}:${front.port}/__appbuilder/enter?ticket=${await access.proxy.tickets.ticket({ projectId: crypto.randomUUID(), host, userId: "u" })}&next=%2F" style="width:100vw;height:100vh;border:0"></iframe>`,
        {
          headers: { "content-type": "text/html" },
        },
      ),
  });
  browser = await launchBrowser();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  app?.stop(true);
  front?.stop(true);
  shell?.stop(true);
});

describe("preview recovery", () => {
  test("the waiting page loads the app by itself within 10 s of the app answering", async () => {
    const context = await newOfflineContext(browser);
    const page = await context.newPage();
    await page.goto(`http://localhost:${shell.port}/`);
    const frame = page.frameLocator("#preview");
    await frame.getByText("Nothing is answering on port 5173 yet").waitFor();
    await frame.getByText("loads it by itself as soon as it answers").waitFor();
    await page.screenshot({ path: join(ARTIFACTS, "preview-waiting.png") });
    // Still waiting a few seconds on: it does not give up, and shows no app that is not there.
    await Bun.sleep(2_500);
    await frame.getByText("Nothing is answering on port 5173 yet").waitFor();

    app = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      fetch: () => new Response("<h1>The todo app is back</h1>", { headers: { "content-type": "text/html" } }),
    });
    appPort = app.port ?? 1;
    const answeredAt = Date.now();
    await frame.getByText("The todo app is back").waitFor({ timeout: 10_000 });
    expect(Date.now() - answeredAt).toBeLessThan(10_000);
    await context.close();
  }, 60_000);
});
