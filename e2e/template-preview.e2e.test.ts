/**
 * A template end to end (issue 4): real Chromium, real app serving web/dist, real Auth emulator and a real
 * local sandbox. The react template is applied through `POST /api/sandbox/{projectId}/template` (its
 * dependencies copied from the template cache the app fills at start), the Preview view shows the rendered
 * app in its frame, and an edit of src/App.tsx saved in the Files view (Monaco) shows up in that frame WITHOUT
 * a reload: Vite's hot update through the preview proxy's WebSocket. Screenshots go to e2e/artifacts/.
 */
import { afterAll, beforeAll, describe, expect } from "bun:test";
import { join } from "node:path";
import type { ProjectFile } from "@shared/schemas/file";
import type { Project } from "@shared/schemas/project";
import type { ApplyTemplateResult } from "@shared/schemas/sandbox";
import type { BrowserContext, ConsoleMessage, Frame, Page } from "playwright-core";
import { checkLocalSandboxSupport } from "../api/src/sandbox/local/check";
import { templateCacheFilled } from "./support/template-cache";
import { bearerToken } from "./support/sign-in";
import { callApi, runCleanups } from "./support/api";
import { stepsReporting } from "./support/step";
import { appDataDir } from "./support/data-dir";
import type { AppServer } from "./support/app-server";
import { startOwnStack } from "./support/own-stack";

const PROJECT_ID = "demo-e2e-template";
const STEP_MS = 15_000;
const ARTIFACTS = join(import.meta.dir, "artifacts");
const TEMPLATE_TEXT = "Hello from React";
const EDITED_TEXT = "Hello from a hot update";
// One line: Monaco re-indents typed newlines, and the saved text must be exactly this.
const EDITED_APP =
  'import { useState } from "react"; export default function App() { const [count, setCount] = useState(0); ' +
  `return (<main className="app"><h1>${EDITED_TEXT}</h1><p>Saved in the Files view.</p>` +
  "<button onClick={() => setCount((c) => c + 1)}>Clicked {count} times</button></main>); }";

const support = await checkLocalSandboxSupport();
const SKIP = support.ok ? null : `skipped: the local sandbox cannot run on this machine (${support.missing.join("; ")})`;
if (SKIP) console.warn(`[template-preview e2e] ${SKIP}`);

const cleanups: Array<() => Promise<unknown> | unknown> = [];
let app: AppServer;
let context: BrowserContext;
let page: Page;
let token: string;
let projectId: string;
let sandboxId: string;
/** Console lines of every frame of the preview page (Vite's client logs '[vite] connected.'). */
const consoleLines: string[] = [];

const api = <T>(method: string, path: string, body?: unknown) => callApi<T>(app.url, token, method, path, body);

const shot = (p: Page, name: string) => p.screenshot({ path: join(ARTIFACTS, `template-preview-${name}.png`) });

/** The Preview view's frame, once it shows `text` (found by its URL: the sandbox's preview host). */
async function frameShowing(p: Page, text: string, timeoutMs = STEP_MS): Promise<Frame> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const frame = p.frames().find((f) => f.url().startsWith(`http://5173-${sandboxId}.localhost:`));
    if (
      frame &&
      (await frame
        .getByText(text, { exact: true })
        .count()
        .catch(() => 0)) > 0
    )
      return frame;
    await Bun.sleep(50);
  }
  throw new Error(
    `no preview frame shows "${text}"; frames: ${p
      .frames()
      .map((f) => f.url())
      .join(", ")}`,
  );
}

/**
 * Signs in through the emulator's popup (as support/sign-in.ts does), with more patience: on a small machine
 * busy with other work the emulator's helper iframe can answer after the Firebase SDK has given up, and the
 * SPA then says 'Sign in failed' instead of opening the popup. Each failure is logged with the toast's text.
 */
async function signIn(p: Page, emulatorHost: string) {
  for (let attempt = 1; ; attempt++) {
    await p.goto(`${app.url}/login`);
    await p.waitForLoadState("networkidle").catch(() => {});
    const popup = p.waitForEvent("popup", { timeout: 45_000 }).catch(() => null);
    const failure = p.getByTestId("toast").filter({ hasText: "Sign in failed" });
    const failed = failure.waitFor({ timeout: 45_000 }).then(
      () => null,
      () => null,
    );
    await p.getByRole("button", { name: "Continue with Google" }).click();
    const opened = await Promise.race([popup, failed]);
    if (opened) {
      await opened.getByText("Add new account").click();
      await opened.getByText("Auto-generate user information").click();
      await opened.locator("#sign-in").click();
      await p.waitForURL("**/projects", { timeout: 45_000 });
      return;
    }
    const said = await failure.allTextContents().catch(() => []);
    const emulator = await fetch(`http://${emulatorHost}/`).then(
      (r) => `HTTP ${r.status}`,
      (e: unknown) => String(e),
    );
    console.warn(`[template-preview e2e] sign-in attempt ${attempt} failed (${JSON.stringify(said)}); the emulator answers ${emulator}`);
    if (attempt >= 5) throw new Error("sign-in: the emulator's popup did not open after 5 attempts");
    await Bun.sleep(2_000 * attempt);
  }
}

/** A test that, when it fails, leaves a screenshot and prints the app's log. */
const step = stepsReporting({
  shot: (name) => shot(page, name),
  appOutput: () => app.output(),
  more: () => `--- preview console ---\n${consoleLines.join("\n")}`,
  timeoutMs: 90_000,
  skip: SKIP,
});

beforeAll(async () => {
  if (SKIP) return;
  const dataDir = appDataDir("e2e-template-", cleanups);
  // This file applies the react template, so the app fills its dependency cache at start, as in production.
  let emulatorHost: string;
  ({ app, context, page, emulatorHost } = await startOwnStack({
    projectId: PROJECT_ID,
    dataDir,
    cleanups,
    env: { SANDBOX_WARM_TEMPLATES: "react" },
    viewport: { width: 1440, height: 900 },
  }));
  // Previews live on their own origin, http://5173-<sandboxId>.localhost:<app port>; let them through.
  await context.route(/^http:\/\/[a-z0-9-]+\.localhost(:\d+)?\//, (route) => route.continue());
  page.on("console", (m: ConsoleMessage) => consoleLines.push(`[${m.type()}] ${m.text()}`));

  // Sign in once the cache is filled: an npm install next to the Auth emulator's popup flow on a small, busy
  // machine can make the Firebase SDK give up ('Sign in failed').
  const deadline = Date.now() + 150_000;
  while (!templateCacheFilled("react") && Date.now() < deadline) await Bun.sleep(200);
  if (!templateCacheFilled("react")) throw new Error(`the react template cache was not filled within 150 s:\n${app.output().slice(-4000)}`);

  await signIn(page, emulatorHost);
  token = await bearerToken(page, app.url);
  projectId = (await api<Project>("POST", "/api/projects", { name: "Template E2E" })).id;
}, 300_000);

afterAll(async () => {
  await runCleanups(cleanups);
}, 30_000);

describe("the react template in a real local sandbox", () => {
  step("applied through the API, the Preview view shows the rendered app", async () => {
    const unknown = await fetch(`${app.url}/api/sandbox/${projectId}/template`, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
      body: JSON.stringify({ template: "svelte" }),
    });
    expect(unknown.status).toBe(400);

    const started = performance.now();
    const applied = await api<ApplyTemplateResult>("POST", `/api/sandbox/${projectId}/template`, { template: "react" });
    console.log(`[template-preview e2e] POST .../template answered in ${Math.round(performance.now() - started)} ms`);
    expect(applied.workflowCommand).toStartWith("node node_modules/vite/bin/vite.js ");
    expect(applied.filesWritten).toBe(8); // AGENTS.md and tsconfig.json included
    const project = await api<Project>("GET", `/api/projects/${projectId}`);
    sandboxId = project.sandboxId!;
    expect(applied.url).toBe(`http://5173-${sandboxId}.localhost:${new URL(app.url).port}`);
    expect(project.sandboxUrl).toBe(applied.url);
    expect(project.workflowCommand).toBe(applied.workflowCommand);
    const files = await api<ProjectFile[]>("GET", `/api/files/${projectId}`);
    expect(files.map((f) => f.path)).toContain("src/App.tsx");

    await page.goto(`${app.url}/project/${projectId}/preview`);
    await page.getByRole("heading", { name: "Preview", exact: true }).waitFor();
    const frame = await frameShowing(page, TEMPLATE_TEXT, 30_000);
    console.log(`[template-preview e2e] the frame showed '${TEMPLATE_TEXT}' ${Math.round(performance.now() - started)} ms after the apply was sent`);
    expect(await frame.getByRole("button", { name: "Clicked 0 times" }).count()).toBe(1);
    await page.getByTestId("sandbox-status").filter({ hasText: "Active" }).waitFor();
    await shot(page, "react-preview");
  });

  step("an edit of src/App.tsx saved in the Files view shows in the preview without a reload (Vite HMR)", async () => {
    const frame = await frameShowing(page, TEMPLATE_TEXT);
    // Vite's client reached the dev server through the preview proxy's WebSocket.
    const deadline = Date.now() + STEP_MS;
    while (!consoleLines.some((l) => l.includes("[vite] connected.")) && Date.now() < deadline) await Bun.sleep(50);
    expect(consoleLines.some((l) => l.includes("[vite] connected."))).toBe(true);
    // State that a reload would lose: a marker on the frame's window and the counter's value.
    await frame.evaluate(() => ((window as unknown as { e2eMarker: string }).e2eMarker = "set before the edit"));
    await frame.getByRole("button", { name: "Clicked 0 times" }).click();
    await frame.getByRole("button", { name: "Clicked 1 times" }).waitFor();
    const frameUrl = frame.url();
    let navigations = 0;
    page.on("framenavigated", (f) => f === frame && navigations++);

    // A second tab of the same signed-in browser edits the file in Monaco and saves.
    const files = await context.newPage();
    files.setDefaultTimeout(STEP_MS);
    await files.goto(`${app.url}/project/${projectId}/files`);
    await files.getByRole("heading", { name: "Files", exact: true }).waitFor();
    await files.getByRole("button", { name: "Edit src/App.tsx" }).click();
    await files.locator(".monaco-editor .view-lines").waitFor();
    await files.waitForFunction(
      (wanted) => (document.querySelector(".monaco-editor .view-lines")?.textContent ?? "").replace(/\u00a0/g, " ").includes(wanted),
      TEMPLATE_TEXT,
    );
    await files.locator(".monaco-editor .view-lines").click();
    await files.keyboard.press("ControlOrMeta+A");
    await files.keyboard.press("Delete");
    await files.keyboard.insertText(EDITED_APP);
    await files.getByText("Unsaved changes").waitFor();
    await shot(files, "files-editing");
    const saved = performance.now();
    await files.getByRole("button", { name: "Save", exact: true }).click();
    await files.getByTestId("toast").filter({ hasText: "File saved" }).waitFor();
    const appFile = (await api<ProjectFile[]>("GET", `/api/files/${projectId}`)).find((f) => f.path === "src/App.tsx")!;
    expect((await api<{ content: string }>("GET", `/api/files/${projectId}/${appFile.id}`)).content).toBe(EDITED_APP);

    const updated = await frameShowing(page, EDITED_TEXT, 10_000);
    console.log(`[template-preview e2e] the preview showed the edit ${Math.round(performance.now() - saved)} ms after Save was clicked`);
    expect(updated).toBe(frame); // the same frame, not a new document
    expect(frame.url()).toBe(frameUrl);
    expect(navigations).toBe(0);
    expect(await frame.evaluate(() => (window as unknown as { e2eMarker?: string }).e2eMarker)).toBe("set before the edit");
    // React Fast Refresh kept the component's state.
    expect(await frame.getByRole("button", { name: "Clicked 1 times" }).count()).toBe(1);
    expect(await frame.getByText(TEMPLATE_TEXT, { exact: true }).count()).toBe(0);
    expect(consoleLines.some((l) => /\[vite\] hot updated: \/src\/App\.tsx/.test(l))).toBe(true);
    await shot(page, "react-preview-after-edit");
    await files.close();
  });
});
