/**
 * The Preview and Terminal views end to end (SPEC.md §2 /project/{id}/preview and /terminal, §4, §7, §8):
 * real Chromium, real app serving web/dist, real Auth emulator, and — where this machine can isolate code —
 * a real local sandbox: a server started in it is shown in the preview frame, the terminal runs commands,
 * and after the sandbox is stopped (idle) the view reads Expired and Recreate brings the preview back.
 * Screenshots go to e2e/artifacts/.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Project } from "@shared/schemas/project";
import type { ShellResult } from "@shared/schemas/sandbox";
import type { Browser, BrowserContext, Frame, Page } from "playwright-core";
import { startAuthEmulator } from "../api/src/auth/emulator";
import { silentLogger } from "../api/src/lib/logger";
import { checkLocalSandboxSupport } from "../api/src/sandbox/local/check";
import { type AppServer, startApp } from "./support/app-server";
import { launchBrowser, newOfflineContext } from "./support/browser";
import { freePort } from "./support/free-port";
import { callApi, runCleanups } from "./support/api";
import { ensureWebBuilt } from "./support/web-build";

const PROJECT_ID = "demo-e2e-preview";
const STEP_MS = 15_000;
const ARTIFACTS = join(import.meta.dir, "artifacts");
const PROJECT_NAME = "Preview E2E";
const PAGE_TEXT = "Hi preview";
// A static server on the preview port, in the background so the command returns at once.
const START_SERVER = "nohup python3 -m http.server 5173 --bind 0.0.0.0 >/dev/null 2>&1 &";
// The same server in the foreground: it lives as long as the shell call (at most the 60 s shell timeout).
const HOLD_SERVER = "exec python3 -m http.server 5173 --bind 0.0.0.0 >/dev/null 2>&1";
// The shortest idle stop the config allows: the "sandbox is killed" step waits for it.
const IDLE_MINUTES = 1;

const support = await checkLocalSandboxSupport();
const SKIP_SANDBOX = support.ok
  ? null
  : `skipped: the local sandbox cannot run on this machine (${support.missing.join("; ")}). Set SANDBOX_PROVIDER=e2b or fix the above to run these.`;
if (SKIP_SANDBOX) console.warn(`[preview-terminal e2e] real-sandbox tests ${SKIP_SANDBOX}`);

const cleanups: Array<() => Promise<unknown> | unknown> = [];
let app: AppServer;
let browser: Browser;
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
const previewFrame = () => page.locator("iframe[title^='Preview of']");

/** The terminal's visible rows (xterm's DOM renderer), trailing blanks trimmed. */
const terminalLines = () =>
  page.locator(".xterm-rows").evaluate((rows) =>
    [...rows.children].map((r) => (r.textContent ?? "").replace(/\u00a0/g, " ").trimEnd()).join("\n").trimEnd(),
  );
async function waitForTerminal(predicate: (text: string) => boolean, what: string, timeoutMs = STEP_MS) {
  const deadline = Date.now() + timeoutMs;
  let text = "";
  while (Date.now() < deadline) {
    text = await terminalLines();
    if (predicate(text)) return text;
    await Bun.sleep(50);
  }
  throw new Error(`terminal never showed ${what}; it shows:\n${text}`);
}
const promptCount = (text: string) => text.split("\n").filter((l) => l.startsWith(`${PROJECT_NAME} $`)).length;
/** Types a line and presses Enter, then waits for the prompt to come back. */
async function runInTerminal(command: string) {
  const before = promptCount(await terminalLines());
  await page.keyboard.type(command);
  await page.keyboard.press("Enter");
  return waitForTerminal((t) => promptCount(t) > before && t.endsWith(`${PROJECT_NAME} $`), `the prompt after "${command}"`, 30_000);
}

/** GET / of the sandbox's preview host through the API's preview proxy, from this process. */
function fetchPreview(url: string): Promise<{ status: number; body: string }> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: "127.0.0.1", port: Number(new URL(app.url).port), path: "/", headers: { host: target.host }, timeout: 5_000 },
      (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (d) => (body += d));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on("error", reject);
    req.on("timeout", () => req.destroy(new Error("timed out")));
    req.end();
  });
}

async function servedWithin(url: string, ms: number): Promise<{ ok: boolean; last: string }> {
  const deadline = Date.now() + ms;
  let last = "";
  while (Date.now() < deadline) {
    const res = await fetchPreview(url).catch((e) => ({ status: 0, body: String(e) }));
    if (res.status === 200 && res.body.includes(PAGE_TEXT)) return { ok: true, last };
    last = `${res.status} ${res.body.slice(0, 200)}`;
    await Bun.sleep(200);
  }
  return { ok: false, last };
}

/**
 * Starts the static server in the project's sandbox through the shell route and waits until the preview
 * serves the page. The background form (`... &`) is tried first; if the server did not outlive its command,
 * that is reported and a foreground server is held by a shell call left pending (ended by its 60 s timeout).
 */
async function startServerAndWait(id: string) {
  const started = await api<ShellResult>("POST", `/api/sandbox/${id}/shell`, { command: START_SERVER });
  expect(started.error).toBeNull();
  const { url } = await api<{ url: string | null }>("GET", `/api/sandbox/${id}/url`);
  expect(url).toMatch(/^http:\/\/5173-[a-z0-9]+\.localhost:\d+$/);
  if ((await servedWithin(url!, 4_000)).ok) return url!;
  console.warn(
    "[preview-terminal e2e] NOTE: a server started in the background (`nohup ... &`) through POST /api/sandbox/{id}/shell " +
      "did not outlive its command in the local sandbox; using a foreground server held by a pending shell call instead.",
  );
  void api("POST", `/api/sandbox/${id}/shell`, { command: HOLD_SERVER }).catch(() => {});
  const held = await servedWithin(url!, 20_000);
  if (!held.ok) throw new Error(`the preview never served the page; last answer: ${held.last}`);
  return url!;
}

/** The preview frame, found by its URL (the sandbox's preview host with the cache-busting parameter). */
async function frameShowing(sandboxId: string, text: string, timeoutMs = STEP_MS): Promise<Frame> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const frame = page.frames().find((f) => f.url().startsWith(`http://5173-${sandboxId}.localhost:`) && f.url().includes("_refresh="));
    if (frame && (await frame.getByText(text).count().catch(() => 0)) > 0) return frame;
    await Bun.sleep(100);
  }
  throw new Error(`no frame of sandbox ${sandboxId} shows "${text}"; frames: ${page.frames().map((f) => f.url()).join(", ")}`);
}

beforeAll(async () => {
  ensureWebBuilt();
  mkdirSync(ARTIFACTS, { recursive: true });
  const dataDir = mkdtempSync(join(tmpdir(), "e2e-preview-"));
  // Sandboxes run as their own users under dataDir/sandboxes, so the folder must be traversable by them.
  chmodSync(dataDir, 0o711);
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));

  const emulatorPort = await freePort();
  const emulator = await startAuthEmulator({ projectId: PROJECT_ID, host: "127.0.0.1", port: emulatorPort, dataDir, log: silentLogger });
  cleanups.push(() => emulator.stop());

  // startApp copies this process's environment; the idle stop is the one setting this file changes.
  const idleBefore = process.env.SANDBOX_IDLE_MINUTES;
  process.env.SANDBOX_IDLE_MINUTES = String(IDLE_MINUTES);
  try {
    app = await startApp({ port: await freePort(), dataDir, emulatorHost: `127.0.0.1:${emulatorPort}`, projectId: PROJECT_ID });
  } finally {
    if (idleBefore === undefined) delete process.env.SANDBOX_IDLE_MINUTES;
    else process.env.SANDBOX_IDLE_MINUTES = idleBefore;
  }
  cleanups.push(() => app.stop());

  browser = await launchBrowser();
  cleanups.push(() => browser.close());
  context = await newOfflineContext(browser);
  // Previews live on their own origin, http://<port>-<sandboxId>.localhost:<app port>; Chromium resolves
  // *.localhost to loopback. Routes registered later win, so this lets them through the offline rule.
  await context.route(/^http:\/\/[a-z0-9-]+\.localhost(:\d+)?\//, (route) => route.continue());
  page = await context.newPage();
  page.setDefaultTimeout(STEP_MS);
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
        .then((t) => toasts.push(...t.filter((x) => !toasts.includes(x))), () => {});
    }, 250);
    await page.getByRole("button", { name: "Continue with Google" }).click();
    try {
      return await popupOpened;
    } catch (err) {
      if (attempt >= attempts) throw err;
      console.warn(
        `[preview-terminal e2e] no sign-in popup after attempt ${attempt} (toasts: ${JSON.stringify(toasts)}; frames: ${page
          .frames()
          .map((f) => f.url())
          .join(" | ")}); trying again`,
      );
    } finally {
      clearInterval(watch);
    }
  }
}

/** A test that, when it fails, leaves a screenshot and prints the app's log. */
function step(name: string, run: () => Promise<void>, timeoutMs = 60_000, skip: string | null = null) {
  if (skip) {
    test.skip(`${name} (${skip})`, () => {});
    return;
  }
  test(
    name,
    async () => {
      try {
        await run();
      } catch (err) {
        await shot(`failure-${name.replace(/\W+/g, "-").slice(0, 40)}`).catch(() => {});
        console.error(`--- app output ---\n${app.output().slice(-4000)}`);
        throw err;
      }
    },
    timeoutMs,
  );
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

  step("Terminal says 'No Sandbox Available' with the hint to start chatting", async () => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(`${app.url}/project/${emptyProjectId}/terminal`);
    await page.getByText("No Sandbox Available", { exact: true }).waitFor();
    await page.getByText("Start chatting with the AI to create files and initialize the sandbox.", { exact: true }).waitFor();
    expect(await page.locator(".xterm").count()).toBe(0);
    await shot("terminal-no-sandbox-1440");
    await page.setViewportSize({ width: 375, height: 740 });
    await page.getByText("No Sandbox Available", { exact: true }).waitFor();
    await shot("terminal-no-sandbox-375");
  });
});

describe("with a real local sandbox", () => {
  step(
    "Preview shows the app served in the sandbox, Active, with the toolbar of spec §2",
    async () => {
      await api("POST", `/api/files/${projectId}`, { path: "index.html", content: `<h1>${PAGE_TEXT}</h1>` });
      const url = await startServerAndWait(projectId);
      const project = await api<Project>("GET", `/api/projects/${projectId}`);
      expect(project.sandboxId).toBeTruthy();
      expect(project.workflowCommand).toBeNull();
      firstSandboxId = project.sandboxId!;

      await page.setViewportSize({ width: 1440, height: 900 });
      const validated = page.waitForRequest((r) => r.url().endsWith(`/api/sandbox/${projectId}/validate`));
      await page.goto(`${app.url}/project/${projectId}/preview`);
      await page.getByRole("heading", { name: "Preview", exact: true }).waitFor();
      expect((await validated).headers().authorization).toBe(`Bearer ${token}`);
      const frame = await frameShowing(firstSandboxId, PAGE_TEXT);
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
      const frame = await frameShowing(firstSandboxId, PAGE_TEXT);
      const url = (await page.getByTestId("preview-url").textContent())!;

      await button("Copy URL").click();
      await toast("URL copied").waitFor();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);

      const before = new URL(frame.url()).searchParams.get("_refresh");
      await button("Refresh preview").click();
      await toast("Refreshed").waitFor();
      await page.waitForFunction(
        (old) => {
          const src = document.querySelector<HTMLIFrameElement>("iframe[title^='Preview of']")?.src ?? "";
          return new URL(src).searchParams.get("_refresh") !== old;
        },
        before,
      );
      await frameShowing(firstSandboxId, PAGE_TEXT);

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
      await frameShowing(firstSandboxId, PAGE_TEXT);
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
    "Terminal runs ls and echo, shows stderr in red, and Ctrl+C and Backspace edit the line",
    async () => {
      await page.setViewportSize({ width: 1440, height: 900 });
      await page.goto(`${app.url}/project/${projectId}/terminal`);
      await page.getByRole("heading", { name: "Terminal", exact: true }).waitFor();
      expect(await page.getByTestId("terminal-sandbox-id").textContent()).toBe(firstSandboxId.slice(0, 8));
      const greeting = await waitForTerminal((t) => t.includes(`${PROJECT_NAME} $`), "the prompt");
      expect(greeting).toContain("E2B Sandbox");
      expect(greeting).toContain(firstSandboxId.slice(0, 8));
      expect(await page.locator(".xterm-rows").evaluate((el) => getComputedStyle(el).fontSize)).toBe("14px");
      // The colour behind the text: the first ancestor of the rows with a background of its own.
      const background = await page.locator(".xterm-rows").evaluate((rows) => {
        for (let el: Element | null = rows; el; el = el.parentElement) {
          const bg = getComputedStyle(el).backgroundColor;
          if (bg !== "rgba(0, 0, 0, 0)" && bg !== "transparent") return bg;
        }
        return null;
      });
      expect(background).toBe("rgb(10, 10, 11)");
      await page.getByTestId("terminal").click();

      expect(await runInTerminal("ls")).toContain("index.html");
      const echoed = await runInTerminal("echo hello");
      expect(echoed.split("\n")).toContain("hello");

      // The animation shows while a command runs, and is gone once the prompt is back.
      await page.keyboard.type("sleep 1 && echo slept");
      await page.keyboard.press("Enter");
      await waitForTerminal((t) => t.includes("Executing..."), "'Executing...'");
      const slept = await waitForTerminal((t) => t.split("\n").includes("slept") && t.endsWith(`${PROJECT_NAME} $`), "slept", 20_000);
      expect(slept).not.toContain("Executing...");

      // A failing command: stderr in red, then the exit code as a red 'Error: ...'.
      const failed = await runInTerminal("ls /no-such-dir");
      expect(failed).toContain("No such file or directory");
      expect(failed).toContain("Error: Command exited with code 2");
      const colours = await page.locator(".xterm-rows span").evaluateAll((spans) =>
        spans
          .filter((s) => /No such file or directory|Error: Command exited/.test(s.textContent ?? ""))
          .map((s) => ({ cls: s.className, color: getComputedStyle(s).color })),
      );
      expect(colours.length).toBeGreaterThanOrEqual(2);
      for (const c of colours) {
        expect(c.cls).toContain("xterm-fg-1");
        expect(c.color).toBe("rgb(248, 113, 113)");
      }
      await shot("terminal-1440");

      // Ctrl+C drops the line: ^C, a fresh prompt, and nothing ran.
      const prompts = promptCount(await terminalLines());
      await page.keyboard.type("echo should-not-run");
      await page.keyboard.press("Control+C");
      const cancelled = await waitForTerminal((t) => promptCount(t) > prompts, "a prompt after ^C");
      expect(cancelled).toContain(`${PROJECT_NAME} $ echo should-not-run^C`);
      expect(cancelled.split("\n")).not.toContain("should-not-run");

      // Backspace deletes a character; an empty line only re-prompts.
      await page.keyboard.type("echo abcx");
      await page.keyboard.press("Backspace");
      await page.keyboard.press("Enter");
      await waitForTerminal((t) => t.split("\n").includes("abc"), "abc");
      const emptyBefore = promptCount(await terminalLines());
      await page.keyboard.press("Enter");
      await waitForTerminal((t) => promptCount(t) === emptyBefore + 1, "one more prompt");

      // Narrow screen: font size 12.
      await page.setViewportSize({ width: 375, height: 740 });
      await page.waitForFunction(() => getComputedStyle(document.querySelector(".xterm-rows")!).fontSize === "12px");
      await Bun.sleep(300);
      await shot("terminal-375");
      await page.setViewportSize({ width: 1440, height: 900 });
    },
    90_000,
    SKIP_SANDBOX,
  );

  step(
    "a stopped sandbox reads Expired; Recreate makes a new one with every file and the preview comes back",
    async () => {
      await page.setViewportSize({ width: 1440, height: 900 });
      await page.goto(`${app.url}/project/${projectId}/preview`);
      await page.getByRole("heading", { name: "Preview", exact: true }).waitFor();
      // Nothing uses the sandbox now, so it is stopped after the idle time (counted from the last command,
      // a held foreground server included); the 5 s check then sees it.
      await badge().filter({ hasText: "Expired" }).waitFor({ timeout: 2 * IDLE_MINUTES * 60_000 + 30_000 });
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
      await startServerAndWait(projectId);
      await button("Refresh preview").click();
      await frameShowing(project.sandboxId!, PAGE_TEXT);
      await dismissToasts();
      await shot("preview-recreated");
    },
    3 * IDLE_MINUTES * 60_000 + 120_000,
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
