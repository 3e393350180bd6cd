/**
 * One Auth emulator, one app and one Chromium for every browser test file in a `bun test` run: starting the
 * emulator takes most of a file's set-up time, and bun runs all test files in one process. Each file takes
 * fresh browser contexts (own cookies and storage) and signs in as its own new user, so files stay independent.
 * Everything started here ends when the test process exits.
 *
 * @example
 * let stack: Stack;
 * beforeAll(async () => { stack = await sharedStack(); }, 150_000);
 * const page = await stack.newPage();
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { startAuthEmulator } from "../../api/src/auth/emulator";
import { silentLogger } from "../../api/src/lib/logger";
import { type AppServer, startApp } from "./app-server";
import { launchBrowser, newOfflineContext } from "./browser";
import { freePort } from "./free-port";
import { ensureWebBuilt } from "./web-build";

export const ARTIFACTS = join(import.meta.dir, "..", "artifacts");
export const STEP_MS = 15_000;

export type Stack = {
  app: AppServer;
  browser: Browser;
  /** host:port of the Auth emulator. */
  emulatorHost: string;
  projectId: string;
  /** A new context (own cookies and storage) at the given viewport, kept offline, and its page. */
  newPage(viewport?: { width: number; height: number }): Promise<Page>;
};

let pending: Promise<Stack> | null = null;

/**
 * Call once per test file, in its beforeAll. Pages left open by earlier files keep polling the app and
 * holding sockets; they are closed here so a long run does not slow down file by file.
 */
export async function sharedStack(): Promise<Stack> {
  pending ??= start();
  const stack = await pending;
  if (stack.browser.isConnected()) await Promise.all(stack.browser.contexts().map((c) => c.close().catch(() => {})));
  return stack;
}

async function start(): Promise<Stack> {
  ensureWebBuilt();
  mkdirSync(ARTIFACTS, { recursive: true });
  const projectId = "demo-e2e-ui";
  const dataDir = mkdtempSync(join(tmpdir(), "e2e-stack-"));
  // Traverse-only for others, as ./data: local sandbox users must reach their folders under it.
  chmodSync(dataDir, 0o711);
  process.on("exit", () => rmSync(dataDir, { recursive: true, force: true }));

  const emulatorPort = await freePort();
  const emulatorHost = `127.0.0.1:${emulatorPort}`;
  // Both register their own exit handlers, so no stop() is needed here.
  // 180 s: on a 2-core machine shared by parallel runs the emulator was seen taking over 90 s to answer.
  const startEmulator = () => startAuthEmulator({ projectId, host: "127.0.0.1", port: emulatorPort, dataDir, log: silentLogger, startTimeoutMs: 180_000 });
  await startEmulator();
  const app = await startApp({ port: await freePort(), dataDir, emulatorHost, projectId });
  // Chromium talks to playwright over a pipe and quits when the test process (its other end) goes away.
  let browser = await launchBrowser();

  return {
    app,
    get browser() {
      return browser;
    },
    emulatorHost,
    projectId,
    async newPage(viewport = { width: 1280, height: 800 }) {
      // One crashed Chromium (it happens on an overloaded machine) must not fail every later file.
      if (!browser.isConnected()) browser = await launchBrowser();
      // Likewise an emulator that went away (killed from outside, say): start it again where the app expects it.
      if (!(await answers(`http://${emulatorHost}/`))) {
        console.warn(`The Auth emulator at ${emulatorHost} stopped answering; starting it again (accounts made so far are gone).`);
        await startEmulator();
      }
      const context = await newOfflineContext(browser, viewport);
      const page = await context.newPage();
      page.setDefaultTimeout(STEP_MS);
      return page;
    },
  };
}

async function answers(url: string): Promise<boolean> {
  return fetch(url, { signal: AbortSignal.timeout(2_000) }).then(
    (r) => r.ok,
    () => false,
  );
}
