/**
 * The Preview view end to end:
 * real Chromium, real app serving web/dist, real Auth emulator, and — where this machine can isolate code —
 * a real local sandbox: a server started in it is shown in the preview frame with the toolbar's actions, and
 * after the sandbox dies (its processes killed) the view reads Expired and Recreate brings the preview back. The
 * Terminal view: terminal.e2e.test.ts. Screenshots go to e2e/artifacts/.
 */
import { afterAll, beforeAll, describe, expect } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Project } from "@shared/schemas/project";
import type { ShellResult } from "@shared/schemas/sandbox";
import type { BrowserContext, Page } from "playwright-core";
import { checkLocalSandboxSupport } from "../api/src/sandbox/local/check";
import { callApi, runCleanups } from "./support/api";
import { appDataDir } from "./support/data-dir";
import { type AppServer, startApp } from "./support/app-server";
import { freePort } from "./support/free-port";
import { frameShowing, startServerAndWait } from "./support/sandbox-preview";
import { ARTIFACTS, sharedStack } from "./support/stack";
import { stepsReporting } from "./support/step";

const PROJECT_NAME = "Preview E2E";
const PAGE_TEXT = "Hi preview";

const support = await checkLocalSandboxSupport();
const SKIP_SANDBOX = support.ok
  ? null
  : `skipped: the local sandbox cannot run on this machine (${support.missing.join("; ")}). Set SANDBOX_PROVIDER=e2b or fix the above to run these.`;
if (SKIP_SANDBOX) console.warn(`[preview e2e] real-sandbox tests ${SKIP_SANDBOX}`);

const cleanups: Array<() => Promise<unknown> | unknown> = [];
let app: AppServer;
let context: BrowserContext;
let page: Page;
let token: string;
let emptyProjectId: string;
let projectId: string;
let firstSandboxId: string;

const api = <T>(method: string, path: string, body?: unknown) => callApi<T>(app.url, token, method, path, body);

const toast = (text: string) => page.getByTestId("toast").filter({ hasText: text });
const shot = (name: string) => page.screenshot({ path: join(ARTIFACTS, `preview-terminal-${name}.png`) });
/** Closes open toasts, so a screenshot shows the page beneath. */
async function dismissToasts() {
  for (const close of await page.getByTestId("toast").getByRole("button", { name: "Close" }).all()) await close.click().catch(() => {});
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="toast"]').length === 0);
}
const badge = () => page.getByTestId("sandbox-status");
const button = (name: string) => page.getByRole("button", { name, exact: true });
/** A test that, when it fails, leaves a screenshot and prints the app's log. */
const step = stepsReporting({ shot, appOutput: () => app.output() });

beforeAll(async () => {
  const dataDir = appDataDir("e2e-preview-", cleanups);
  const stack = await sharedStack();
  app = await startApp({ port: await freePort(), dataDir, emulatorHost: stack.emulatorHost, projectId: stack.projectId });
  cleanups.push(() => app.stop());
  page = await stack.newPage();
  context = page.context();
  // Previews live on their own origin, http://<port>-<sandboxId>.app.localhost:<app port>; Chromium resolves
  // *.localhost to loopback. Routes registered later win, so this lets them through the offline rule.
  await context.route(/^http:\/\/[a-z0-9.-]+\.localhost(:\d+)?\//, (route) => route.continue());
  page.on("console", (m) => m.type() === "error" && console.error(`[browser] ${m.text()}`));
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: app.url });

  try {
    const popup = await openSignInPopup();
    await popup.getByText("Add new account").click();
    await popup.getByText("Auto-generate user information").click();
    const authorized = page.waitForRequest((r) => r.url().endsWith("/api/projects") && Boolean(r.headers().authorization));
    await popup.locator("#sign-in").click();
    token = (await authorized).headers().authorization!.replace(/^Bearer /, "");
    await page.waitForURL("**/projects");
  } catch (err) {
    await shot("failure-sign-in").catch(() => {});
    console.error(`--- app output ---\n${app.output().slice(-4000)}`);
    throw err;
  }

  emptyProjectId = (await api<Project>("POST", "/api/projects", { name: "No Sandbox Yet" })).id;
  projectId = (await api<Project>("POST", "/api/projects", { name: PROJECT_NAME })).id;
}, 180_000);

afterAll(async () => {
  await runCleanups(cleanups);
}, 30_000);

/**
 * Clicks 'Continue with Google' until the emulator's popup opens. On a loaded machine the click sometimes
 * opens nothing (Firebase's helper iframe is not ready yet); a fresh page and a second click do.
 */
async function openSignInPopup(attempts = 3): Promise<Page> {
  for (let attempt = 1; ; attempt++) {
    await page.goto(`${app.url}/login`);
    await page.waitForLoadState("networkidle");
    const popupOpened = page.waitForEvent("popup", { timeout: 20_000 });
    const toasts: string[] = [];
    const watch = setInterval(() => {
      void page
        .getByTestId("toast")
        .allTextContents()
        .then(
          (t) => toasts.push(...t.filter((x) => !toasts.includes(x))),
          () => {},
        );
    }, 250);
    await page.getByRole("button", { name: "Continue with Google" }).click();
    try {
      return await popupOpened;
    } catch (err) {
      if (attempt >= attempts) throw err;
      console.warn(
        `[preview e2e] no sign-in popup after attempt ${attempt} (toasts: ${JSON.stringify(toasts)}; frames: ${page
          .frames()
          .map((f) => f.url())
          .join(" | ")}); trying again`,
      );
    } finally {
      clearInterval(watch);
    }
  }
}

describe("without a sandbox", () => {
  step("Preview says 'Setting up sandbox...' and asks nothing of the sandbox routes", async () => {
    const sandboxCalls: string[] = [];
    const onRequest = (r: { url(): string }) => r.url().includes("/api/sandbox/") && sandboxCalls.push(r.url());
    page.on("request", onRequest);
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(`${app.url}/project/${emptyProjectId}/preview`);
    await page.getByText("Setting up sandbox...", { exact: true }).waitFor();
    expect(await page.getByRole("heading", { name: "Preview", exact: true }).count()).toBe(0);
    await shot("preview-no-sandbox-1440");
    await page.setViewportSize({ width: 375, height: 740 });
    await page.getByText("Setting up sandbox...", { exact: true }).waitFor();
    await shot("preview-no-sandbox-375");
    page.off("request", onRequest);
    expect(sandboxCalls).toEqual([]);
  });
});

describe("with a real local sandbox", () => {
  step(
    "Preview shows the app served in the sandbox, Active, with its toolbar (URL, Open in new tab)",
    async () => {
      await api("POST", `/api/files/${projectId}`, { path: "index.html", content: `<h1>${PAGE_TEXT}</h1>` });
      const url = await startServerAndWait(api, app.url, projectId, PAGE_TEXT);
      const project = await api<Project>("GET", `/api/projects/${projectId}`);
      expect(project.sandboxId).toBeTruthy();
      expect(project.workflowCommand).toBeNull();
      firstSandboxId = project.sandboxId!;

      await page.setViewportSize({ width: 1440, height: 900 });
      const validated = page.waitForRequest((r) => r.url().endsWith(`/api/sandbox/${projectId}/validate`));
      await page.goto(`${app.url}/project/${projectId}/preview`);
      await page.getByRole("heading", { name: "Preview", exact: true }).waitFor();
      expect((await validated).headers().authorization).toBe(`Bearer ${token}`);
      const frame = await frameShowing(page, firstSandboxId, PAGE_TEXT);
      expect(new URL(frame.url()).origin).toBe(new URL(url).origin);
      expect(await badge().textContent()).toBe("Active");
      expect(await page.getByTestId("preview-url").textContent()).toBe(url);

      // Toolbar: no Recreate while Active, no Run workflow without a command; the rest are there.
      expect(await button("Recreate sandbox").count()).toBe(0);
      expect(await button("Run workflow").count()).toBe(0);
      for (const name of ["Fullscreen", "Copy URL", "Refresh preview", "Download source"]) await button(name).waitFor();
      const open = page.getByRole("link", { name: "Open in new tab" });
      expect(await open.getAttribute("href")).toBe(url);
      expect(await open.getAttribute("target")).toBe("_blank");

      // Frame width: wide layout here.
      const wide = (await page.getByTestId("preview-frame").boundingBox())!;
      expect(wide.width).toBeGreaterThan(1000);
      await shot("preview-1440");

      // The validity poll keeps going every 5 s.
      const polls: number[] = [];
      const onRequest = (r: { url(): string }) => r.url().endsWith("/validate") && polls.push(Date.now());
      page.on("request", onRequest);
      await Bun.sleep(11_000);
      page.off("request", onRequest);
      expect(polls.length).toBeGreaterThanOrEqual(2);
      expect(polls.length).toBeLessThanOrEqual(3);
    },
    90_000,
    SKIP_SANDBOX,
  );

  step(
    "Copy URL, Refresh, Download source and fullscreen do what they say",
    async () => {
      await page.setViewportSize({ width: 1440, height: 900 });
      await page.goto(`${app.url}/project/${projectId}/preview`);
      const frame = await frameShowing(page, firstSandboxId, PAGE_TEXT);
      const url = (await page.getByTestId("preview-url").textContent())!;

      await button("Copy URL").click();
      await toast("URL copied").waitFor();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);

      const before = new URL(frame.url()).searchParams.get("_refresh");
      await button("Refresh preview").click();
      await toast("Refreshed").waitFor();
      await page.waitForFunction((old) => {
        const src = document.querySelector<HTMLIFrameElement>("iframe[title^='Preview of']")?.src ?? "";
        return new URL(src).searchParams.get("_refresh") !== old;
      }, before);
      await frameShowing(page, firstSandboxId, PAGE_TEXT);

      const downloadRequest = page.waitForRequest((r) => r.url().endsWith(`/api/files/${projectId}/download`));
      const downloading = page.waitForEvent("download");
      await button("Download source").click();
      const download = await downloading;
      expect((await downloadRequest).headers().authorization).toBe(`Bearer ${token}`);
      expect(download.suggestedFilename()).toBe(`${PROJECT_NAME}-source.json`);
      const saved = join(ARTIFACTS, "preview-terminal-source.json");
      await download.saveAs(saved);
      const json = JSON.parse(readFileSync(saved, "utf8")) as { projectName: string; filesCount: number; files: Record<string, string> };
      expect(json.projectName).toBe(PROJECT_NAME);
      expect(json.files["index.html"]).toBe(`<h1>${PAGE_TEXT}</h1>`);
      await toast("Download started").waitFor();

      await button("Fullscreen").click();
      await page.locator("[data-testid='preview-page'][data-fullscreen]").waitFor();
      const full = (await page.getByTestId("preview-frame").boundingBox())!;
      expect(full.width).toBeGreaterThan(1400);
      await dismissToasts();
      await shot("preview-fullscreen");
      await button("Exit fullscreen").click();
      await page.locator("[data-testid='preview-page']:not([data-fullscreen])").waitFor();

      // Narrowest screens: the frame is at most 375 px wide; fullscreen and download are hidden.
      await page.setViewportSize({ width: 375, height: 740 });
      await frameShowing(page, firstSandboxId, PAGE_TEXT);
      const narrow = (await page.getByTestId("preview-frame").boundingBox())!;
      expect(narrow.width).toBeLessThanOrEqual(375);
      expect(await button("Fullscreen").isVisible()).toBe(false);
      expect(await button("Download source").isVisible()).toBe(false);
      expect(await button("Copy URL").isVisible()).toBe(true);
      await dismissToasts();
      await shot("preview-375");
    },
    60_000,
    SKIP_SANDBOX,
  );

  step(
    "a stopped sandbox reads Expired; Recreate makes a new one with every file and the preview comes back",
    async () => {
      await page.setViewportSize({ width: 1440, height: 900 });
      await page.goto(`${app.url}/project/${projectId}/preview`);
      await page.getByRole("heading", { name: "Preview", exact: true }).waitFor();
      // The sandbox dies: every process of its user is killed, as a crash or the kernel's OOM killer would.
      // The 5 s status check sees it gone. (An idle stop ends in the same state after SANDBOX_IDLE_MINUTES; the
      // security suite's lifetime tests cover that stop itself, without a minute's wait here.)
      const { stdout } = await api<ShellResult>("POST", `/api/sandbox/${projectId}/shell`, { command: "id -u" });
      const uid = Number(stdout.trim());
      expect(uid).toBeGreaterThan(1000);
      expect(Bun.spawnSync(["pkill", "-KILL", "-u", String(uid)]).exitCode).toBe(0);
      await badge().filter({ hasText: "Expired" }).waitFor({ timeout: 30_000 });
      await button("Recreate sandbox").waitFor();
      expect(await button("Refresh preview").count()).toBe(0);
      await page.getByText("This sandbox has stopped", { exact: false }).waitFor();
      await shot("preview-expired");
      await page.setViewportSize({ width: 375, height: 740 });
      await button("Recreate sandbox").waitFor();
      await shot("preview-expired-375");
      await page.setViewportSize({ width: 1440, height: 900 });

      await button("Recreate sandbox").click();
      await toast("Sandbox recreated").filter({ hasText: "New sandbox created with 1 files synced" }).waitFor({ timeout: 60_000 });
      await badge().filter({ hasText: "Active" }).waitFor();
      const project = await api<Project>("GET", `/api/projects/${projectId}`);
      expect(project.sandboxId).toBeTruthy();
      expect(project.sandboxId).not.toBe(firstSandboxId);
      // The frame already points at the new sandbox (the URL override), before any server runs there.
      await page.waitForFunction(
        (id) => document.querySelector<HTMLIFrameElement>("iframe[title^='Preview of']")?.src.startsWith(`http://5173-${id}.`),
        project.sandboxId,
      );

      // No workflow is configured, so start the server again; index.html came across with the recreate.
      await startServerAndWait(api, app.url, projectId, PAGE_TEXT);
      await button("Refresh preview").click();
      await frameShowing(page, project.sandboxId!, PAGE_TEXT);
      await dismissToasts();
      await shot("preview-recreated");
    },
    180_000,
    SKIP_SANDBOX,
  );
  step(
    "the toolbar's other paths: Run workflow with a configured command, and a failed recreate (API answers stubbed)",
    async () => {
      // No route sets a workflowCommand (only the agent's templates do), so the project and the answers are
      // stubbed here; the real routes are covered by the API tests.
      const projectUrl = `${app.url}/api/projects/${projectId}`;
      await page.route(projectUrl, async (route) => {
        const res = await route.fetch();
        const body = (await res.json()) as Project;
        await route.fulfill({ response: res, json: { ...body, workflowCommand: "npm run dev" } });
      });
      await page.route(`**/api/sandbox/${projectId}/run-workflow`, (route) =>
        route.fulfill({ status: 200, json: { ok: true, workflowCommand: "npm run dev" } }),
      );
      await page.route(`**/api/sandbox/${projectId}/validate`, (route) => route.fulfill({ status: 200, json: { isValid: false } }));
      await page.route(`**/api/sandbox/${projectId}/recreate`, (route) =>
        route.fulfill({ status: 503, json: { error: "Could not start a sandbox: test says no", code: "dependency_unavailable" } }),
      );
      try {
        await page.setViewportSize({ width: 1440, height: 900 });
        await page.goto(`${app.url}/project/${projectId}/preview`);
        await button("Run workflow").click();
        await toast("Command started").filter({ hasText: "npm run dev" }).waitFor();

        await badge().filter({ hasText: "Expired" }).waitFor();
        await button("Recreate sandbox").click();
        await toast("Failed to recreate sandbox").filter({ hasText: "Could not start a sandbox: test says no" }).waitFor();
        expect(await page.getByTestId("toast").getAttribute("data-variant")).toBe("destructive");
        await badge().filter({ hasText: "Expired" }).waitFor();
        await shot("preview-recreate-failed");
      } finally {
        await page.unrouteAll({ behavior: "ignoreErrors" });
      }
    },
    60_000,
    SKIP_SANDBOX,
  );
});
