/**
 * Browser-side stand-ins for tests of client behaviour that must not wait on a real sandbox: a project that
 * has (or gets) a sandbox as far as the page can tell, with its URL, validity and recreate answers under
 * the test's control; recorders of every toast and of the preview frame's sources, with when each appeared;
 * a hidden-tab switch.
 *
 * @example
 * const sandbox = await stubSandboxProject(page, app.url, projectId, { sandboxId: "stubsandbox0001" });
 * sandbox.valid = false; // the next validity check answers isValid false
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { BrowserContext, Page, Route } from "playwright-core";

export const SCREENSHOTS = join(import.meta.dir, "..", "screenshots");
mkdirSync(SCREENSHOTS, { recursive: true });

export type StubSandbox = {
  sandboxId: string;
  workflowCommand: string | null;
  /** What GET …/validate answers (isValid). */
  valid: boolean;
  /** What GET …/url answers; by default a stub page answered by the test (see previewUrlFor). */
  url: string;
  /** What POST …/recreate answers: its result, also applied to this stub (new sandbox, valid). */
  recreate: { url: string; filesSynced: number; workflowCommand: string | null; sandboxId: string } | null;
  /** Every validity check the page made, as Date.now(). */
  validations: number[];
};

/**
 * A preview host of a stub sandbox (its id starts with "stub"): answered in the browser with a small page,
 * never by a real sandbox. On the app's port, since the app's Content-Security-Policy frames previews there.
 */
export function previewUrlFor(sandboxId: string, appUrl: string): string {
  return `http://5173-${sandboxId}.app.localhost:${new URL(appUrl).port}`;
}

const contextsWithPreviews = new WeakSet<BrowserContext>();

export async function stubSandboxProject(
  page: Page,
  appUrl: string,
  projectId: string,
  init: Partial<StubSandbox> & { sandboxId: string },
): Promise<StubSandbox> {
  const state: StubSandbox = {
    workflowCommand: null,
    valid: true,
    url: previewUrlFor(init.sandboxId, appUrl),
    recreate: null,
    validations: [],
    ...init,
  };
  await page.route(`**/api/projects/${projectId}`, async (route) => {
    if (route.request().method() !== "GET") return route.fallback();
    const res = await route.fetch();
    const body = (await res.json()) as Record<string, unknown>;
    await route.fulfill({ response: res, json: { ...body, sandboxId: state.sandboxId, sandboxUrl: state.url, workflowCommand: state.workflowCommand } });
  });
  await page.route(`**/api/sandbox/${projectId}/url`, (route) => route.fulfill({ json: { url: state.url } }));
  // No ticket: a stub preview is answered in the browser, so the frame loads its URL as it is.
  await page.route(`**/api/sandbox/${projectId}/preview-ticket`, (route) => route.fulfill({ json: { origin: null, enterUrl: null } }));
  await page.route(`**/api/sandbox/${projectId}/validate`, (route) => {
    state.validations.push(Date.now());
    return route.fulfill({ json: { isValid: state.valid } });
  });
  await page.route(`**/api/sandbox/${projectId}/recreate`, (route: Route) => {
    const next = state.recreate;
    if (!next) return route.fulfill({ status: 503, json: { error: "no recreate scripted", code: "dependency_unavailable" } });
    Object.assign(state, { sandboxId: next.sandboxId, url: next.url, workflowCommand: next.workflowCommand, valid: true });
    const { sandboxId: _, ...result } = next;
    return route.fulfill({ json: result });
  });
  // The stub previews: a tiny page, so the frame has something to show. On the context: a preview is
  // another origin, whose frame Chromium runs out of process, beyond the page's own routes.
  const context = page.context();
  if (!contextsWithPreviews.has(context)) {
    contextsWithPreviews.add(context);
    await context.route(/^http:\/\/\d+-stub[a-z0-9]+\.app\.localhost:\d+\//, (route) =>
      route.fulfill({ contentType: "text/html", body: "<!doctype html><h1>Stub app</h1>" }),
    );
  }
  return state;
}

export type SeenToast = { text: string; at: number };

/** Starts recording each toast as it appears (its text, and performance.now() in the page). */
export async function recordToasts(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { seenToasts?: Array<{ text: string; at: number }>; toastObserver?: MutationObserver };
    w.toastObserver?.disconnect();
    const seen: Array<{ text: string; at: number }> = [];
    const known = new WeakSet<Element>();
    const scan = () => {
      for (const el of document.querySelectorAll('[data-testid="toast"]')) {
        if (known.has(el)) continue;
        known.add(el);
        seen.push({ text: (el.textContent ?? "").replace(/\s+/g, " ").trim(), at: performance.now() });
      }
    };
    w.seenToasts = seen;
    w.toastObserver = new MutationObserver(scan);
    w.toastObserver.observe(document.body, { childList: true, subtree: true, characterData: true });
  });
}

export function seenToasts(page: Page): Promise<SeenToast[]> {
  return page.evaluate(() => (window as unknown as { seenToasts: Array<{ text: string; at: number }> }).seenToasts);
}

export type SeenFrameSource = { src: string; at: number };

/**
 * Starts recording each new src of the preview frame (its title starts "Preview of"), with performance.now()
 * when it changed: the frame's src attribute changing, or the frame itself being mounted or replaced.
 */
export async function recordFrameSources(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { frameSources?: Array<{ src: string; at: number }>; frameObserver?: MutationObserver };
    w.frameObserver?.disconnect();
    const seen: Array<{ src: string; at: number }> = [];
    const scan = () => {
      const src = document.querySelector<HTMLIFrameElement>("iframe[title^='Preview of']")?.src ?? "";
      if (seen.at(-1)?.src !== src) seen.push({ src, at: performance.now() });
    };
    w.frameSources = seen;
    w.frameObserver = new MutationObserver(scan);
    w.frameObserver.observe(document.body, { childList: true, subtree: true, attributes: true, attributeFilter: ["src"] });
    scan();
  });
}

export function frameSources(page: Page): Promise<SeenFrameSource[]> {
  return page.evaluate(() => (window as unknown as { frameSources: Array<{ src: string; at: number }> }).frameSources);
}

/** Pretends the tab was hidden or shown (headless Chromium keeps pages visible). */
export async function setTabHidden(page: Page, hidden: boolean): Promise<void> {
  await page.evaluate((h) => {
    Object.defineProperty(document, "hidden", { configurable: true, get: () => h });
    Object.defineProperty(document, "visibilityState", { configurable: true, get: () => (h ? "hidden" : "visible") });
    document.dispatchEvent(new Event("visibilitychange"));
  }, hidden);
}
