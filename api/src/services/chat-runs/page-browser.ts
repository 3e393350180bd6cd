/**
 * The headless browser the agent's check runs an app's page in when no preview is open, so errors thrown
 * while the page runs (an exception at render, an unhandled rejection, console.error) reach the model.
 * The only importer of playwright-core in the server.
 *
 * - Debian's Chromium (CHECK_BROWSER_PATH; "auto" tries the usual paths, "off" turns it off), driven over a
 *   pipe (playwright's launch never opens a TCP debugging port), so nothing in a sandbox can reach it.
 * - Started on the first check that needs it and closed after `idleMs` without a page; a launch that fails
 *   is not tried again for a while (the check falls back to the crawl meanwhile).
 * - One page at a time per project, each in a fresh context (no cookies or storage from an earlier check),
 *   which reaches the app's own origin only: every other request, WebSocket and service worker is refused,
 *   since the app's code runs here on the server's side of the network.
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
import { type BrowserReport, browserReportToProblem } from "../problems/browser-report";

export interface PageBrowser {
  /**
   * Loads `url` and lets it run until its network is quiet (bounded); the problems it showed, or null when no
   * browser is available (none configured or found, or it failed to start or load the page).
   */
  run(key: string, url: string): Promise<AppProblem[] | null>;
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

export type PageBrowserOptions = {
  /** CHECK_BROWSER_PATH: "auto", "off" or the browser's path. */
  setting: string;
  logger: Logger;
  /** The whole check of one page, launch excluded (default 10 s). */
  timeoutMs?: number;
  /** A browser without a page this long is closed (default 60 s). */
  idleMs?: number;
};

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

  async function started(): Promise<Browser | null> {
    if (!path || (failedAt && Date.now() - failedAt < RELAUNCH_AFTER_MS)) return null;
    if (!browser) {
      const launching = chromium.launch({
        executablePath: path,
        // Chromium refuses to start its own sandbox as root; elsewhere it keeps it.
        args: process.getuid?.() === 0 ? ["--no-sandbox", ...ARGS] : ARGS,
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
    if (current) await (await current.catch(() => null))?.close().catch(() => {});
  }

  async function runOnce(url: string): Promise<AppProblem[] | null> {
    const b = await started();
    if (!b) return null;
    open++;
    if (idle) clearTimeout(idle);
    let context: BrowserContext | null = null;
    try {
      context = await b.newContext({ serviceWorkers: "block", acceptDownloads: false, viewport: { width: 1280, height: 800 } });
      return await loadPage(context, url, timeoutMs);
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
      }
      open--;
      if (open === 0) closeWhenIdle();
    }
  }

  return {
    run(key, url) {
      // One page at a time per project: a check waits for the one before it.
      const before = queues.get(key) ?? Promise.resolve();
      const mine = before.then(() => runOnce(url));
      const settled = mine.catch(() => null);
      queues.set(key, settled);
      void settled.then(() => queues.get(key) === settled && queues.delete(key));
      return mine;
    },
    close,
  };
}

async function loadPage(context: BrowserContext, url: string, timeoutMs: number): Promise<AppProblem[] | null> {
  const deadline = Date.now() + timeoutMs;
  const left = () => Math.max(1, deadline - Date.now());
  const { origin } = new URL(url);
  const own = (u: string) => {
    try {
      return new URL(u).origin === origin;
    } catch {
      return false;
    }
  };
  await context.route("**/*", (route) => (own(route.request().url()) ? route.continue() : route.abort("blockedbyclient")));
  // Vite's HMR socket reaches the app; a socket anywhere else is closed unconnected.
  await context.routeWebSocket(
    () => true,
    (ws) => (own(ws.url().replace(/^ws/, "http")) ? ws.connectToServer() : ws.close()),
  );
  const page = await context.newPage();
  const { problems: seen, quiet } = watch(page, own);
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
function watch(page: Page, own: (url: string) => boolean): { problems(): AppProblem[]; quiet(maxMs: number): Promise<void> } {
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
    const out: AppProblem[] = [];
    const keys = new Set<string>();
    for (const report of reports) {
      const p = browserReportToProblem(report, now);
      if (!p || keys.has(`${p.source}\n${p.message}`)) continue;
      keys.add(`${p.source}\n${p.message}`);
      out.push({ source: p.source, message: p.message, file: p.file, line: p.line });
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
