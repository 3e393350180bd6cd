/**
 * Versions in the browser (issue 12) and the preview beside the chat (issue 10): real Chromium, the real app
 * serving web/dist with the scripted model server (api/src/test/fake-model-server.ts), a real local sandbox
 * serving the project's index.html where this machine can run one. The agent changes a file; "Undo this
 * run" brings the old content back in Files and in the preview panel; History shows the diff in Monaco and
 * restores after a confirmation; a restore while the agent works shows the API's 409 sentence; "Save version"
 * with a name puts that version at the top of History; the preview
 * panel shows at 1440 px, not at 1024 px, keeps its width across a reload and collapses.
 * Screenshots go to e2e/artifacts/history-*.png.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import type { ShellResult } from "@shared/schemas/sandbox";
import type { Frame, Page } from "playwright-core";
import { type FakeModelServer, turn } from "../api/src/test/fake-model-server";
import { checkLocalSandboxSupport } from "../api/src/sandbox/local/check";
import { callApi, runCleanups } from "./support/api";
import type { AppServer } from "./support/app-server";

import { ARTIFACTS, type Stack, STEP_MS } from "./support/stack";
import { startModelApp } from "./support/model-app";

const V1 = "<h1>Version one</h1>\n";
const V2 = "<h1>Version two, written by the agent</h1>\n";
const size = (text: string) => `${new TextEncoder().encode(text).length} B`;
// A static server for index.html on the preview port, in the background so the command returns at once.
const START_SERVER = "nohup python3 -m http.server 5173 --bind 0.0.0.0 >/dev/null 2>&1 &";

const support = await checkLocalSandboxSupport();
const NO_SANDBOX = support.ok ? null : `the local sandbox cannot run here (${support.missing.join("; ")})`;
if (NO_SANDBOX) console.warn(`[history e2e] preview content checks skipped: ${NO_SANDBOX}`);

let stack: Stack;
let model: FakeModelServer;
let app: AppServer;
let page: Page;
let token: string;
let projectId: string;
let sandboxId: string | null = null;
const cleanups: Array<() => unknown> = [];

const api = <T>(method: string, path: string, body?: unknown) => callApi<T>(app.url, token, method, path, body);
const shot = (p: Page, name: string) => p.screenshot({ path: join(ARTIFACTS, `history-${name}.png`) });
const toast = (p: Page, text: string) => p.getByTestId("toast").filter({ hasText: text });
const idle = (p: Page) => p.getByTestId("send-button").waitFor({ timeout: 60_000 });
const panel = (p: Page) => p.getByTestId("chat-preview-panel");
const fileRow = (p: Page, path: string) => p.locator(`[data-testid="file-row"][data-path="${path}"]`);

async function send(p: Page, text: string) {
  await p.getByTestId("chat-input").fill(text);
  await p.getByTestId("send-button").click();
}

/** The file's content as the API has it now. */
async function contentOf(path: string): Promise<string> {
  const files = await api<{ id: string; path: string }[]>("GET", `/api/files/${projectId}`);
  const file = files.find((f) => f.path === path);
  if (!file) throw new Error(`${path} is not in the project`);
  return (await api<{ content: string }>("GET", `/api/files/${projectId}/${file.id}`)).content;
}

/** The preview panel's frame once it shows `text` (frames of the sandbox's preview host). */
async function previewShows(p: Page, text: string, timeoutMs = 30_000): Promise<Frame> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const frame = p.frames().find((f) => f.url().startsWith(`http://5173-${sandboxId}.app.localhost:`));
    if (
      frame &&
      (await frame
        .getByText(text)
        .count()
        .catch(() => 0)) > 0
    )
      return frame;
    await Bun.sleep(150);
  }
  throw new Error(
    `the preview never showed "${text}"; frames: ${p
      .frames()
      .map((f) => f.url())
      .join(", ")}`,
  );
}

/** Text of one side of the Monaco diff ("original": the version, "modified": the files now). */
const diffSide = (p: Page, side: "original" | "modified") =>
  p
    .locator(`.monaco-diff-editor .editor.${side} .view-lines`)
    .first()
    .evaluate((el) => (el.textContent ?? "").replace(/\u00a0/g, " "));

async function newPage(width: number) {
  const p = await stack.newPage({ width, height: 900 });
  await watchPage(p);
  return p;
}

/** Browser errors go to the test's output; the sandbox's preview origin is let through the offline rule. */
async function watchPage(p: Page) {
  p.setDefaultTimeout(STEP_MS);
  p.on("console", (m) => m.type() === "error" && console.error(`[browser] ${m.text()}`));
  p.on("pageerror", (e) => console.error(`[browser] ${e.message}`));
  // Previews live on their own origin, http://5173-<sandboxId>.app.localhost:<port>: let them through the offline rule.
  await p.context().route(/^http:\/\/[a-z0-9.-]+\.localhost(:\d+)?\//, (route) => route.continue());
}

/** On failure: the app's log and a screenshot. */
async function withDiagnostics(name: string, p: Page, body: () => Promise<void>) {
  try {
    await body();
  } catch (err) {
    console.error(`--- app output (${name}) ---\n${app.output().slice(-6000)}`);
    await shot(p, `failure-${name}`).catch(() => {});
    throw err;
  }
}

beforeAll(async () => {
  ({ stack, model, app, page, token } = await startModelApp({ name: "history", cleanups, env: { OPENAI_MODEL: "fake-model" }, onPage: watchPage }));
  projectId = (await api<{ id: string }>("POST", "/api/projects", { name: "History E2E" })).id;
  await api("POST", `/api/files/${projectId}`, { path: "index.html", content: V1 });
  if (!NO_SANDBOX) {
    // The shell call creates the sandbox (filled with the project's files) and starts the page's server.
    const started = await api<ShellResult>("POST", `/api/sandbox/${projectId}/shell`, { command: START_SERVER });
    expect(started.error).toBeNull();
    sandboxId = (await api<{ sandboxId: string | null }>("GET", `/api/projects/${projectId}`)).sandboxId;
  }
}, 400_000);

afterAll(async () => {
  await runCleanups(cleanups);
}, 30_000);

describe("history", () => {
  test("the agent changes a file; 'Undo this run' brings the old content back in Files and in the preview", async () => {
    await withDiagnostics("undo", page, async () => {
      model.reset();
      model.enqueue(turn.toolCalls([{ name: "write_file", arguments: { path: "index.html", content: V2 } }]), turn.text("I changed the heading."));
      await page.goto(`${app.url}/project/${projectId}/chat`);
      await page.getByTestId("chat-composer").waitFor();
      await send(page, "Change the heading");
      await idle(page);
      expect(await contentOf("index.html")).toBe(V2);
      if (sandboxId) await previewShows(page, "Version two");

      const answer = page.locator('[data-testid="message"][data-role="assistant"]').last();
      await answer.getByTestId("undo-run").click();
      // The dialog's root has no size of its own (its panel is fixed): wait for what it shows.
      const dialog = page.getByRole("dialog", { name: "Undo this run?" });
      await dialog.getByTestId("confirm-restore").waitFor();
      await shot(page, "undo-confirm");
      await dialog.getByTestId("confirm-restore").click();
      await toast(page, "Version restored").waitFor();
      expect(await contentOf("index.html")).toBe(V1);
      // The panel loads the page again after the restore, from the sandbox the restore synced.
      if (sandboxId) await previewShows(page, "Version one");
      await shot(page, "undone");

      await page.goto(`${app.url}/project/${projectId}/files`);
      await fileRow(page, "index.html")
        .getByTestId("file-size")
        .filter({ hasText: size(V1) })
        .waitFor();
    });
  }, 180_000);

  test("History lists the versions and shows the diff against the current files; Restore asks first, then restores", async () => {
    await withDiagnostics("panel", page, async () => {
      await page.goto(`${app.url}/project/${projectId}/files`);
      await fileRow(page, "index.html").waitFor();
      await page.getByTestId("open-history").click();
      const history = page.getByTestId("history-panel");
      await history.waitFor();
      const items = history.getByTestId("version-item");
      await items.first().waitFor();
      const labels = await history.getByTestId("version-label").allTextContents();
      // Newest first: the undo (a restore), the files before it, the run, and the first edit.
      expect(labels[0]).toBe('Restored "Edited in Files"');
      expect(labels).toContain("Change the heading");
      const agent = items.filter({ hasText: "Change the heading" }).first();
      expect(await agent.getAttribute("data-source")).toBe("agent");
      expect(await agent.getByTestId("version-change").textContent()).toBe(`1 file · ${size(V2)}`);

      await agent.click();
      await history.getByTestId("selected-version-label").filter({ hasText: "Change the heading" }).waitFor();
      await history.locator('[data-testid="diff-file"][data-kind="changed"]', { hasText: "index.html" }).waitFor();
      // Monaco is a large chunk: its first load on a busy machine takes a while.
      await page.locator(".monaco-diff-editor .editor.modified .view-lines").first().waitFor({ timeout: 60_000 });
      await page.waitForFunction(() => (document.querySelector(".monaco-diff-editor .editor.original .view-lines")?.textContent ?? "").length > 0);
      expect(await diffSide(page, "original")).toContain("Version two, written by the agent");
      expect(await diffSide(page, "modified")).toContain("Version one");
      await shot(page, "diff");

      // Cancel leaves the files alone; confirming restores.
      await history.getByTestId("restore-version").click();
      const dialog = page.getByRole("dialog", { name: "Restore this version?" });
      await dialog.getByRole("button", { name: "Cancel" }).click();
      await dialog.getByTestId("confirm-restore").waitFor({ state: "detached" });
      expect(await contentOf("index.html")).toBe(V1);
      await history.getByTestId("restore-version").click();
      await page.getByRole("dialog", { name: "Restore this version?" }).getByTestId("confirm-restore").click();
      await toast(page, "Version restored").waitFor();
      expect(await contentOf("index.html")).toBe(V2);
      // Against the restored version the current files are now the same.
      await history.getByTestId("version-diff-empty").waitFor();
      await page.getByRole("dialog", { name: "History" }).getByRole("button", { name: "Close" }).click();
      await history.waitFor({ state: "hidden" });
      await fileRow(page, "index.html")
        .getByTestId("file-size")
        .filter({ hasText: size(V2) })
        .waitFor();
    });
  }, 180_000);

  test("a restore while the agent works is refused, and the API's message shows as a toast", async () => {
    await withDiagnostics("busy", page, async () => {
      model.reset();
      model.enqueue(turn.steps({ text: "Working on it" }, { delayMs: 8000 }, { text: " … done." }));
      await page.goto(`${app.url}/project/${projectId}/chat`);
      await page.getByTestId("chat-composer").waitFor();
      await send(page, "Take your time");
      await page.locator('[data-testid="message"][data-role="assistant"][data-status="running"]').waitFor();
      await page.locator('[data-testid="message"][data-role="user"]').first().getByTestId("restore-before-message").click();
      await page.getByRole("dialog", { name: "Restore to before this message?" }).getByTestId("confirm-restore").click();
      const refused = toast(page, "Restore refused");
      await refused.waitFor();
      expect(await refused.textContent()).toContain("The agent is working on this project");
      await shot(page, "refused");
      expect(await contentOf("index.html")).toBe(V2);
      await idle(page);
    });
  }, 120_000);

  test("'Save version' with a name puts that version at the top of History", async () => {
    await withDiagnostics("save-version", page, async () => {
      await page.goto(`${app.url}/project/${projectId}/files`);
      await fileRow(page, "index.html").waitFor();
      await page.getByTestId("open-history").click();
      const history = page.getByTestId("history-panel");
      await history.getByTestId("version-item").first().waitFor();
      const save = history.getByRole("button", { name: "Save version" });
      expect(await save.isDisabled()).toBe(true); // no name yet
      await history.getByLabel("Version name").fill("  Before the redesign ");
      await save.click();
      await toast(page, "Version saved").waitFor();
      await history.getByTestId("version-label").first().filter({ hasText: "Before the redesign" }).waitFor();
      expect(await history.getByTestId("version-label").first().textContent()).toBe("Before the redesign");
      expect(await history.getByTestId("version-item").first().getAttribute("data-source")).toBe("manual");
      expect(await history.getByTestId("selected-version-label").textContent()).toBe("Before the redesign");
      expect(await history.getByLabel("Version name").inputValue()).toBe("");
      const saved = await api<{ label: string }[]>("GET", `/api/projects/${projectId}/versions?limit=1`);
      expect(saved.map((v) => v.label)).toEqual(["Before the redesign"]);
      await shot(page, "saved-version");
      await page.getByRole("dialog", { name: "History" }).getByRole("button", { name: "Close" }).click();
      await history.waitFor({ state: "hidden" });
    });
  }, 60_000);
});

describe("preview beside the chat", () => {
  test("shows at 1440 px with the preview, not at 1024 px; 'Setting up sandbox...' without a sandbox", async () => {
    await withDiagnostics("panel-widths", page, async () => {
      await page.goto(`${app.url}/project/${projectId}/chat`);
      await panel(page).waitFor();
      if (sandboxId) await previewShows(page, "Version two");
      await shot(page, "panel-1440");

      const bare = (await api<{ id: string }>("POST", "/api/projects", { name: "No sandbox" })).id;
      await page.goto(`${app.url}/project/${bare}/chat`);
      await panel(page).getByTestId("chat-preview-setting-up").filter({ hasText: "Setting up sandbox..." }).waitFor();

      // The same session on a narrower screen: the panel and its button are gone.
      await page.setViewportSize({ width: 1024, height: 900 });
      try {
        await page.goto(`${app.url}/project/${projectId}/chat`);
        await page.getByTestId("chat-header").waitFor();
        await page.getByTestId("open-history").waitFor();
        // Publish sits in the chat's own header at every width.
        await page.getByTestId("chat-header").getByTestId("publish-button").waitFor();
        expect(await panel(page).count()).toBe(0);
        expect(await page.getByTestId("show-preview-panel").count()).toBe(0);
        await shot(page, "panel-1024");
      } finally {
        await page.setViewportSize({ width: 1440, height: 900 });
      }
    });
  }, 180_000);

  test("the width set by dragging is kept across a reload; collapse hides it, also after a reload", async () => {
    await withDiagnostics("panel-resize", page, async () => {
      await page.goto(`${app.url}/project/${projectId}/chat`);
      await panel(page).waitFor();
      const before = (await panel(page).boundingBox())!.width;
      const handle = (await page.getByTestId("preview-panel-resize").boundingBox())!;
      const y = handle.y + 200;
      await page.mouse.move(handle.x + handle.width / 2, y);
      await page.mouse.down();
      await page.mouse.move(handle.x - 60, y, { steps: 4 });
      await page.mouse.move(handle.x - 120, y, { steps: 4 });
      await page.mouse.up();
      const after = (await panel(page).boundingBox())!.width;
      expect(after).toBeGreaterThan(before + 100);

      await page.reload();
      await panel(page).waitFor();
      expect(Math.abs((await panel(page).boundingBox())!.width - after)).toBeLessThanOrEqual(1);

      await page.getByTestId("collapse-preview-panel").click();
      await panel(page).waitFor({ state: "detached" });
      await page.reload();
      await page.getByTestId("show-preview-panel").waitFor();
      expect(await panel(page).count()).toBe(0);
      await page.getByTestId("show-preview-panel").click();
      await panel(page).waitFor();
      expect(Math.abs((await panel(page).boundingBox())!.width - after)).toBeLessThanOrEqual(1);
    });
  }, 120_000);
});
