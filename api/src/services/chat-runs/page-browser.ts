/**
 * The headless browser the agent's check runs an app's page in when no preview is open, so errors thrown
 * while the page runs (an exception at render, an unhandled rejection, console.error) reach the model.
 * The only importer of playwright-core in the server.
 *
 * - Debian's Chromium (CHECK_BROWSER_PATH; "auto" tries the usual paths, "off" turns it off), driven over a
 *   pipe (playwright's launch never opens a TCP debugging port), so nothing in a sandbox can reach it; with its
 *   own sandbox on, as an unprivileged user when the server is root (browser-launch.ts).
 * - Started on the first check that needs it and closed after `idleMs` without a page; a launch that fails
 *   is not tried again for a while (the check falls back to the crawl meanwhile).
 * - One page at a time per project, each in a fresh context (no cookies or storage from an earlier check),
 *   which reaches the app's own origin only: every other request, WebSocket and service worker is refused,
 *   since the app's code runs here on the server's side of the network.
 * - After a check, a spare context and page for the project's next check are made ahead (fresh, never used,
 *   routes in place), so that check skips their creation; at most MAX_SPARES, gone with the browser.
 * - A bounded time per check (`timeoutMs`): the page's `load`, then until its network has been quiet for
 *   QUIET_MS (at most QUIET_WAIT_MS more).
 *
 * @example
 * const browser = createPageBrowser({ setting: "auto", logger });
 * await browser.run(projectId, "http://127.0.0.1:41234/"); // [{ source: "browser", message: "TypeError: …" }] or null
 */
import { existsSync } from "node:fs";
import { type Browser, type BrowserContext, type ConsoleMessage, chromium, type Page } from "playwright-core";
import type { AppProblem } from "../../agent/ports";
import type { Logger } from "../../lib/logger";
import { type BrowserLaunch, browserLaunch } from "./browser-launch";
import { type BrowserReport, browserReportToProblem } from "../problems/browser-report";

/** A problem the page showed, with its stack (the Problems list keeps it for "Fix with AI"). */
export type PageFinding = AppProblem & { detail: string | null };

export interface PageBrowser {
  /**
   * Loads `url` and lets it run until its network is quiet (bounded); the problems it showed, or null when no
   * browser is available (none configured or found, or it failed to start or load the page).
   */
  run(key: string, url: string): Promise<PageFinding[] | null>;
  close(): Promise<void>;
}

/** Where Debian, Ubuntu and Google put a Chromium. */
const CANDIDATES = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome-stable", "/usr/bin/google-chrome"];
const ARGS = ["--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"];
/** After a failed launch, checks run without a browser this long before it is tried again. */
const RELAUNCH_AFTER_MS = 5 * 60_000;
/** After the page's `load`, up to this long for the network to go quiet (lazy chunks, first fetches)… */
const QUIET_WAIT_MS = 2_000;
/**
 * …that is, for this long with no request of the page's open: enough for what a page does right after it
 * loads (React renders in a task of its own) and for a fetch's answer to be handled. Playwright's
 * "networkidle" waits 500 ms, a third of a warm check.
 */
const QUIET_MS = 250;
const MAX_PROBLEMS = 20;
const CLOSE_WAIT_MS = 5_000;
/** Spare contexts kept ready at once (one per project that ran a check lately; the oldest goes first). */
const MAX_SPARES = 4;

export type PageBrowserOptions = {
  /** CHECK_BROWSER_PATH: "auto", "off" or the browser's path. */
  setting: string;
  logger: Logger;
  /** The whole check of one page, launch excluded (default 10 s). */
  timeoutMs?: number;
  /** A browser without a page this long is closed (default 60 s). */
  idleMs?: number;
  /** Make a spare context and page ahead for a project's next check (default true; the bench compares both). */
  spare?: boolean;
};

/** A context with its routes in place and a blank page, for one origin. */
type Prepared = { context: BrowserContext; page: Page };
type Spare = { origin: string; browser: Browser; ready: Promise<Prepared | null> };

/** The browser's path from CHECK_BROWSER_PATH, or null for none. */
export function browserPath(setting: string): string | null {
  if (setting === "off") return null;
  if (setting !== "auto") return setting;
  return CANDIDATES.find((path) => existsSync(path)) ?? null;
}

export function createPageBrowser(o: PageBrowserOptions): PageBrowser {
  const path = browserPath(o.setting);
  const timeoutMs = o.timeoutMs ?? 10_000;
  const idleMs = o.idleMs ?? 60_000;
  let browser: Promise<Browser> | null = null;
  let failedAt = 0;
  let open = 0;
  let idle: ReturnType<typeof setTimeout> | null = null;
  const queues = new Map<string, Promise<unknown>>();
  const spares = new Map<string, Spare>();
  const makeSpares = o.spare ?? true;
  let launchSettings: BrowserLaunch | null = null;

  async function started(): Promise<Browser | null> {
    if (!path || (failedAt && Date.now() - failedAt < RELAUNCH_AFTER_MS)) return null;
    if (!browser) {
      // As root, through a wrapper that runs it as an unprivileged user so it keeps its own sandbox (browser-launch.ts).
      if (!launchSettings) {
        launchSettings = browserLaunch(path);
        if (!launchSettings.sandboxed)
          o.logger.warn("the check's headless browser runs without its sandbox: the server is root and setpriv is missing", { path });
      }
      const launching = chromium.launch({
        executablePath: launchSettings.executablePath,
        args: [...launchSettings.args, ...ARGS],
        // Playwright adds --no-sandbox unless told the sandbox is wanted.
        chromiumSandbox: launchSettings.sandboxed,
        headless: true,
        timeout: 30_000,
        // The server handles its own signals and closes the browser on shutdown.
        handleSIGINT: false,
        handleSIGTERM: false,
        handleSIGHUP: false,
      });
      browser = launching;
      launching.then(
        (b) => b.on("disconnected", () => browser === launching && (browser = null)),
        () => {},
      );
    }
    try {
      return await browser;
    } catch (error) {
      browser = null;
      failedAt = Date.now();
      o.logger.warn("the check's headless browser did not start; checks run without it", { path, error: String(error) });
      return null;
    }
  }

  function closeWhenIdle() {
    if (idle) clearTimeout(idle);
    idle = setTimeout(() => {
      idle = null;
      if (open === 0) void close();
    }, idleMs);
    idle.unref?.();
  }

  async function close() {
    const current = browser;
    browser = null;
    // The spares' contexts go with their browser.
    spares.clear();
    if (current) await (await current.catch(() => null))?.close().catch(() => {});
  }

  /** The spare made for this project and origin in this browser, or a context and page made now. */
  async function contextFor(b: Browser, key: string, origin: string): Promise<Prepared> {
    const spare = spares.get(key);
    spares.delete(key);
    if (spare && spare.browser === b && spare.origin === origin) {
      const ready = await spare.ready;
      if (ready) return ready;
    } else if (spare) {
      void spare.ready.then((s) => s?.context.close().catch(() => {}));
    }
    return prepare(b, origin);
  }

  /** Makes the project's next check's context ahead, once this one is closed. Never rejects. */
  function keepSpare(b: Browser, key: string, origin: string) {
    if (!makeSpares || !b.isConnected() || spares.has(key)) return;
    const ready = prepare(b, origin).catch(() => null);
    spares.set(key, { origin, browser: b, ready });
    while (spares.size > MAX_SPARES) {
      const [oldest, spare] = spares.entries().next().value!;
      spares.delete(oldest);
      void spare.ready.then((s) => s?.context.close().catch(() => {}));
    }
  }

  async function runOnce(key: string, url: string): Promise<PageFinding[] | null> {
    const b = await started();
    if (!b) return null;
    open++;
    if (idle) clearTimeout(idle);
    let context: BrowserContext | null = null;
    const { origin } = new URL(url);
    let ok = false;
    try {
      const prepared = await contextFor(b, key, origin);
      context = prepared.context;
      const found = await loadPage(prepared.page, url, timeoutMs);
      ok = true;
      return found;
    } catch (error) {
      o.logger.warn("the check's headless page load failed", { error: String(error) });
      return null;
    } finally {
      // A page stuck in an endless loop must not hold the project's queue: a close that does not finish in
      // time takes the whole browser down (the next check starts a fresh one).
      const closed = await Promise.race([
        context?.close().then(
          () => true,
          () => true,
        ) ?? true,
        Bun.sleep(CLOSE_WAIT_MS).then(() => false),
      ]);
      if (!closed) {
        o.logger.warn("the check's headless page did not close; restarting the browser");
        void close();
      } else if (ok) {
        keepSpare(b, key, origin);
      }
      open--;
      if (open === 0) closeWhenIdle();
    }
  }

  return {
    run(key, url) {
      // One page at a time per project: a check waits for the one before it.
      const before = queues.get(key) ?? Promise.resolve();
      const mine = before.then(() => runOnce(key, url));
      const settled = mine.catch(() => null);
      queues.set(key, settled);
      void settled.then(() => queues.get(key) === settled && queues.delete(key));
      return mine;
    },
    close,
  };
}

/** Whether `url` is at `origin`. */
function sameOrigin(url: string, origin: string): boolean {
  try {
    return new URL(url).origin === origin;
  } catch {
    return false;
  }
}

/** A fresh context that reaches `origin` only, and a blank page in it. */
async function prepare(b: Browser, origin: string): Promise<Prepared> {
  const context = await b.newContext({ serviceWorkers: "block", acceptDownloads: false, viewport: { width: 1280, height: 800 } });
  try {
    const own = (u: string) => sameOrigin(u, origin);
    await context.route("**/*", (route) => (own(route.request().url()) ? route.continue() : route.abort("blockedbyclient")));
    // Vite's HMR socket reaches the app; a socket anywhere else is closed unconnected.
    await context.routeWebSocket(
      () => true,
      (ws) => (own(ws.url().replace(/^ws/, "http")) ? ws.connectToServer() : ws.close()),
    );
    return { context, page: await context.newPage() };
  } catch (error) {
    await context.close().catch(() => {});
    throw error;
  }
}

async function loadPage(page: Page, url: string, timeoutMs: number): Promise<PageFinding[] | null> {
  const deadline = Date.now() + timeoutMs;
  const left = () => Math.max(1, deadline - Date.now());
  const { origin } = new URL(url);
  const { problems: seen, quiet } = watch(page, (u) => sameOrigin(u, origin));
  const loaded = await page.goto(url, { waitUntil: "load", timeout: left() }).then(
    () => true,
    () => false,
  );
  // A page that never finished loading (an endless loop at start, a request that never ends) was not run to
  // the end: what it showed by then counts, and a page that showed nothing is not judged.
  if (!loaded) {
    const found = seen();
    return found.length ? found : null;
  }
  await quiet(Math.min(QUIET_WAIT_MS, left()));
  // A round trip through the page after a task of its own: what it queued before (React's first render, a
  // handler of a fetch's answer) has run, and what that threw has reached us, since the page's events come
  // down the same pipe in order. Bounded: a page busy in a loop never answers.
  await Promise.race([page.evaluate(() => new Promise<void>((done) => setTimeout(done, 0))).catch(() => {}), Bun.sleep(Math.min(1_000, left()))]);
  return seen();
}

/**
 * Collects what the page shows as it runs, shaped as the preview's reporter (report.js) shapes its reports;
 * `quiet` waits (at most `maxMs`) until no request has been open for QUIET_MS.
 */
function watch(page: Page, own: (url: string) => boolean): { problems(): PageFinding[]; quiet(maxMs: number): Promise<void> } {
  const reports: BrowserReport[] = [];
  const failed = new Set<string>();
  let open = 0;
  let lastActivity = Date.now();
  page.on("request", () => {
    open++;
    lastActivity = Date.now();
  });
  const done = () => {
    open = Math.max(0, open - 1);
    lastActivity = Date.now();
  };
  page.on("requestfinished", done);
  const add = (report: BrowserReport) => reports.length < MAX_PROBLEMS * 2 && reports.push(report);
  page.on("pageerror", (error) => {
    const message = error.name ? `${error.name}: ${error.message}` : error.message;
    add({ kind: "error", message, stack: error.stack || null, file: null, line: null });
  });
  page.on("console", (message) => {
    if (message.type() === "error") {
      const report = consoleReport(message);
      if (report) add(report);
    }
  });
  const failedLoad = (requestUrl: string, type: string, why: string) => {
    if (!own(requestUrl) || !["script", "stylesheet"].includes(type) || failed.has(requestUrl)) return;
    failed.add(requestUrl);
    const path = new URL(requestUrl).pathname;
    add({ kind: "resource", message: `Failed to load ${type === "script" ? "module script" : "stylesheet"} ${path} (${why})`, file: path, line: null });
  };
  page.on("response", (response) => {
    if (response.status() >= 400) failedLoad(response.url(), response.request().resourceType(), `HTTP ${response.status()}`);
  });
  page.on("requestfailed", (request) => {
    done();
    failedLoad(request.url(), request.resourceType(), request.failure()?.errorText ?? "failed");
  });
  const quiet = async (maxMs: number) => {
    const deadline = Date.now() + maxMs;
    while (Date.now() < deadline && (open > 0 || Date.now() - lastActivity < QUIET_MS)) await Bun.sleep(25);
  };
  const problems = () => {
    const now = new Date();
    const out: PageFinding[] = [];
    const keys = new Set<string>();
    for (const report of reports) {
      const p = browserReportToProblem(report, now);
      if (!p || keys.has(`${p.source}\n${p.message}`)) continue;
      keys.add(`${p.source}\n${p.message}`);
      out.push({ source: p.source, message: p.message, file: p.file, line: p.line, detail: p.detail });
      if (out.length >= MAX_PROBLEMS) break;
    }
    return out;
  };
  return { problems, quiet };
}

/**
 * A console.error as a report. The browser's own "Failed to load resource" lines are left out: failed scripts
 * and stylesheets of the app are reported from the network, and requests refused here are not the app's fault.
 */
function consoleReport(message: ConsoleMessage): BrowserReport | null {
  const text = message.text();
  if (/^Failed to load resource\b/.test(text) || /^\[vite\] .*\(see errors above\)/.test(text)) return null;
  const { url, lineNumber } = message.location();
  return { kind: "console", message: text, stack: null, file: url ? `${url}:${lineNumber + 1}` : null, line: null };
}
