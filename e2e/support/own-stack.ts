/**
 * An Auth emulator, an app and a Chromium of one test file's own, for files that need an app set up their
 * way (a setting of their own, an idle stop of a minute) or to watch every request of its page, where
 * stack.ts's shared one would not do. Each part's stop goes onto `cleanups` (run them with runCleanups).
 *
 * @example
 * const own = await startOwnStack({ projectId: "demo-e2e-files", dataDir, cleanups });
 * await signInWithGoogle(own.page, own.app.url);
 */
import { mkdirSync } from "node:fs";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { startAuthEmulator } from "../../api/src/auth/emulator";
import { silentLogger } from "../../api/src/lib/logger";
import { type AppServer, startApp } from "./app-server";
import { launchBrowser, newOfflineContext } from "./browser";
import { freePort } from "./free-port";
import { ARTIFACTS, STEP_MS } from "./stack";
import { ensureWebBuilt } from "./web-build";

/** `emulatorHost`: the Auth emulator's host:port, for a test that checks on it. */
export type OwnStack = { app: AppServer; browser: Browser; context: BrowserContext; page: Page; emulatorHost: string };

export async function startOwnStack(o: {
  /** The emulator's demo project, which the app's tokens name. */
  projectId: string;
  dataDir: string;
  cleanups: Array<() => unknown>;
  /** Settings for this app only (startApp's `env`). */
  env?: Record<string, string>;
  /** The page's size, when not newOfflineContext's default. */
  viewport?: { width: number; height: number };
}): Promise<OwnStack> {
  ensureWebBuilt();
  mkdirSync(ARTIFACTS, { recursive: true });
  const emulatorPort = await freePort();
  const emulator = await startAuthEmulator({ projectId: o.projectId, host: "127.0.0.1", port: emulatorPort, dataDir: o.dataDir, log: silentLogger });
  o.cleanups.push(() => emulator.stop());

  const app = await startApp({ port: await freePort(), dataDir: o.dataDir, emulatorHost: `127.0.0.1:${emulatorPort}`, projectId: o.projectId, env: o.env });
  o.cleanups.push(() => app.stop());

  const browser = await launchBrowser();
  o.cleanups.push(() => browser.close());
  const context = await newOfflineContext(browser, o.viewport);
  const page = await context.newPage();
  page.setDefaultTimeout(STEP_MS);
  return { app, browser, context, page, emulatorHost: `127.0.0.1:${emulatorPort}` };
}
