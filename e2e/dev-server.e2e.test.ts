/**
 * Development mode end to end: `bun scripts/dev.ts` (what `bun run dev` runs) on free ports with a throw-away
 * DATA_DIR, its own Auth emulator, and the scripted model server behind the chat; real Chromium on Vite's
 * dev server. Every other browser test runs the production build, where React's StrictMode does not mount
 * components twice, so a bug of development alone (the chat re-mounted mid-send dropping the message "Fix
 * with AI" queued) went unseen there. Here: Vite serves the SPA from source and proxies the API, sign-in
 * works through it, "Fix with AI" reaches the chat and the model, and stopping dev mode ends all it started.
 * Screenshots go to e2e/artifacts/dev-server-*.png.
 */
import { afterAll, beforeAll, describe, expect } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Project } from "@shared/schemas/project";
import type { Page } from "playwright-core";
import { type FakeModelServer, lastUserText, startFakeModelServer } from "../api/src/test/fake-model-server";
import { checkLocalSandboxSupport } from "../api/src/sandbox/local/check";
import { killQuietly, startTime } from "../api/src/sandbox/local/procs";
import { callApi, runCleanups } from "./support/api";
import { type AppServer, startApp } from "./support/app-server";
import { launchBrowser, newOfflineContext } from "./support/browser";
import { fixWithAi } from "./support/chat";
import { appDataDir } from "./support/data-dir";
import { freePort } from "./support/free-port";
import { bearerToken, signInWithGoogle, uniqueEmail } from "./support/sign-in";
import { ARTIFACTS, STEP_MS } from "./support/stack";
import { previewCookie } from "./support/sandbox-preview";
import { stepsReporting } from "./support/step";
import { until } from "./support/until";

const support = await checkLocalSandboxSupport();
const SKIP = support.ok ? null : `skipped: the local sandbox cannot run on this machine (${support.missing.join("; ")})`;
if (SKIP) console.log(`[dev-server e2e] ${SKIP}`);

const PROJECT = "Dev Mode E2E";
const PROBLEM = "E2E dev-mode boom in a click handler";
// A statement of work done: a reply that only announces work ("I will…") is nudged back to the tools (issue 23).
const REPLY = "The click handler is guarded now.";

let model: FakeModelServer;
let dev: AppServer;
let webUrl: string;
let page: Page;
let token: string;
let projectId: string;
const cleanups: Array<() => unknown> = [];
const consoleLines: string[] = [];

const api = <T>(method: string, path: string, body?: unknown) => callApi<T>(dev.url, token, method, path, body);
const shot = (name: string) => page.screenshot({ path: join(ARTIFACTS, `dev-server-${name}.png`) });
const get = (url: string) =>
  fetch(url, { signal: AbortSignal.timeout(10_000) }).then(async (r) => ({
    status: r.status,
    type: r.headers.get("content-type") ?? "",
    text: await r.text(),
  }));
const answers = (url: string) =>
  fetch(url, { signal: AbortSignal.timeout(1_000) }).then(
    () => true,
    () => false,
  );

/** Every process under `pid` (dev.ts's API, Vite through bunx, the emulator's node), read from ps. */
function descendants(pid: number): number[] {
  const rows = Bun.spawnSync(["ps", "-e", "-o", "pid=,ppid="])
    .stdout.toString()
    .trim()
    .split("\n")
    .map((l) => l.trim().split(/\s+/).map(Number));
  const found: number[] = [];
  for (let queue = [pid]; queue.length; ) {
    const parent = queue.shift()!;
    for (const [child, ppid] of rows) if (ppid === parent && !found.includes(child!)) found.push(child!), queue.push(child!);
  }
  return found;
}
/** Running, not a zombie waiting for a reaper that may never come (in a container, say). */
const alive = (pid: number) => {
  try {
    return !/^\d+ \(.*\) Z /.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
};

const step = stepsReporting({
  shot,
  appOutput: () => dev?.output() ?? "",
  more: () => `--- page console ---\n${consoleLines.slice(-40).join("\n")}`,
  skip: SKIP,
});

beforeAll(async () => {
  if (SKIP) return;
  model = await startFakeModelServer();
  cleanups.push(() => model.close());
  const [apiPort, webPort, emulatorPort] = [await freePort(), await freePort(), await freePort()];
  webUrl = `http://localhost:${webPort}`;
  // No emulator given: dev.ts starts its own, as for a contributor, on the port named here.
  dev = await startApp({
    port: apiPort,
    dataDir: appDataDir("e2e-dev-", cleanups),
    command: ["bun", "scripts/dev.ts"],
    timeoutMs: 120_000,
    env: {
      WEB_PORT: String(webPort),
      AUTH_EMULATOR_PORT: String(emulatorPort),
      OPENAI_BASE_URL: model.baseUrl,
      OPENAI_API_KEY: "test-key",
      OPENAI_MODEL: "fake-model",
    },
  });
  // The last step stops dev mode and checks it ended everything; whatever a failed run leaves goes here.
  // Each pid with its start time: a pid that exited may since belong to another process, which is left alone.
  const withStart = (pids: number[]) => new Map(pids.map((pid) => [pid, startTime(pid)]));
  const devStarted = startTime(dev.pid);
  const started = withStart(descendants(dev.pid));
  cleanups.push(async () => {
    const pids = new Map([...started, ...(startTime(dev.pid) === devStarted ? withStart(descendants(dev.pid)) : [])]);
    await dev.stop();
    for (const [pid, since] of pids) if (since !== null && startTime(pid) === since && alive(pid)) killQuietly(pid);
  });
  await until("Vite answers", () => answers(webUrl), Boolean, 60_000);

  const browser = await launchBrowser();
  cleanups.push(() => browser.close());
  page = await (await newOfflineContext(browser, { width: 1440, height: 900 })).newPage();
  page.setDefaultTimeout(STEP_MS);
  page.on("console", (m) => void consoleLines.push(`[${m.type()}] ${m.text()}`));
}, 180_000);

afterAll(async () => {
  await runCleanups(cleanups);
}, 30_000);

describe("development mode (bun run dev)", () => {
  step("Vite serves the SPA from source with its hot-reload client, and proxies the API", async () => {
    const index = await get(`${webUrl}/`);
    expect(index.text).toContain("/@vite/client");
    const client = await get(`${webUrl}/@vite/client`);
    expect(client).toMatchObject({ status: 200, type: expect.stringContaining("javascript") });
    expect(client.text).toContain("vite-hmr");
    // The entry module, transformed on request with React's development runtime (not web/dist's bundle).
    const main = await get(`${webUrl}/src/main.tsx`);
    expect(main).toMatchObject({ status: 200, type: expect.stringContaining("javascript") });
    expect(main.text).toContain("StrictMode");
    expect(main.text).toContain("jsxDEV");
    expect((await get(`${dev.url}/api/health`)).status).toBe(200);
    expect((await get(`${webUrl}/api/health`)).status).toBe(200);
  });

  step("sign-in works through Vite, and /projects lists a project made through the API", async () => {
    await signInWithGoogle(page, webUrl, { email: uniqueEmail("dev-mode") });
    token = await bearerToken(page, webUrl);
    projectId = (await api<Project>("POST", "/api/projects", { name: PROJECT })).id;
    await page.goto(`${webUrl}/projects`);
    await page.getByText(PROJECT).waitFor();
    // The page runs Vite's module graph: its client and the entry as a source module.
    const scripts = await page.evaluate(() => performance.getEntriesByType("resource").map((e) => new URL(e.name).pathname));
    expect(scripts).toContain("/@vite/client");
    expect(scripts).toContain("/src/main.tsx");
    await shot("projects");
  });

  step("Fix with AI, under StrictMode: the queued message shows in the chat and reaches the model", async () => {
    // A sandbox of the project (empty, nothing to install), and a problem reported the way a preview page does.
    const { url } = await api<{ url: string }>("POST", `/api/sandbox/${projectId}/recreate`);
    const preview = new URL(url);
    const report = { reports: [{ kind: "error", message: PROBLEM, stack: `Error: ${PROBLEM}\n    at onClick (${preview.origin}/src/App.tsx:7:11)` }] };
    const res = await fetch(`${dev.url}/__appbuilder/problems`, {
      method: "POST",
      // With the preview host's cookie, as the page's own reporter sends it: previews answer nobody else.
      headers: { host: preview.host, origin: preview.origin, cookie: await previewCookie(api, dev.url, projectId), "content-type": "application/json" },
      body: JSON.stringify(report),
    });
    expect(res.status).toBe(204);

    await page.goto(`${webUrl}/project/${projectId}/preview`);
    const row = page.getByTestId("problem-row").filter({ hasText: PROBLEM });
    await row.waitFor({ timeout: 20_000 });
    expect(await row.getByTestId("problem-place").innerText()).toBe("src/App.tsx:7");
    const sent = await fixWithAi(page, model, projectId, row.getByTestId("fix-with-ai"), PROBLEM, REPLY);
    expect(await sent.count()).toBe(1);
    // Sent to the model once, not again by a re-mounted chat.
    const received = model.requests.map((_, i) => lastUserText(model, i));
    expect(received.filter((text) => text.includes(PROBLEM))).toHaveLength(1);
    expect(lastUserText(model)).toContain("Fix this problem in the app's preview");
    expect(lastUserText(model)).toContain("src/App.tsx:7");
    await shot("fix-with-ai");
  });

  step("stopping dev mode (SIGTERM) ends the API, Vite and the Auth emulator, and then dev.ts", async () => {
    const pids = descendants(dev.pid);
    expect(pids.length).toBeGreaterThanOrEqual(3);
    // The tab goes first: its open streams would hold the API's drain to its 5 s end.
    await page.context().close();
    const stopping = Date.now();
    // Sent here rather than by dev.stop(), whose SIGKILL after 5 s would not let dev.ts stop the rest itself.
    process.kill(dev.pid, "SIGTERM");
    await until(
      "dev mode's processes gone",
      () => [dev.pid, ...pids].filter(alive),
      (left) => left.length === 0,
      20_000,
    );
    console.log(`[dev-server e2e] dev mode ended ${Date.now() - stopping} ms after SIGTERM`);
    expect(await answers(webUrl)).toBe(false);
    expect(await answers(`${dev.url}/api/health`)).toBe(false);
  });
});
