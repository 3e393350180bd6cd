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
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
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

export function sharedStack(): Promise<Stack> {
  pending ??= start();
  return pending;
}

async function start(): Promise<Stack> {
  ensureWebBuilt();
  mkdirSync(ARTIFACTS, { recursive: true });
  const projectId = "demo-e2e-ui";
  const dataDir = mkdtempSync(join(tmpdir(), "e2e-stack-"));
  process.on("exit", () => rmSync(dataDir, { recursive: true, force: true }));

  const emulatorPort = await freePort();
  const emulatorHost = `127.0.0.1:${emulatorPort}`;
  // Both register their own exit handlers, so no stop() is needed here.
  await startAuthEmulator({ projectId, host: "127.0.0.1", port: emulatorPort, dataDir, log: silentLogger });
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
      const context = await newOfflineContext(browser, viewport);
      const page = await context.newPage();
      page.setDefaultTimeout(STEP_MS);
      return page;
    },
  };
}
