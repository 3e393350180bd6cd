/**
 * The Preview's `app` process in Chromium, with a real local sandbox: the node template's app shows
 * "Running on port 3000"; broken (a syntax error in server.js), it crashes in a loop and the view shows its
 * last log lines, with the error, in place of the frame; fixed and restarted with the Restart button, it
 * runs and the frame shows the page again. The Logs panel follows the output live. Screenshots go to
 * e2e/artifacts/.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import type { ProjectFile } from "@shared/schemas/file";
import type { ProcessInfo } from "@shared/schemas/processes";
import type { Project } from "@shared/schemas/project";
import type { Page } from "playwright-core";
import { checkLocalSandboxSupport } from "../api/src/sandbox/local/check";
import { callApi } from "./support/api";
import { bearerToken, signInWithGoogle } from "./support/sign-in";
import { ARTIFACTS, type Stack, sharedStack } from "./support/stack";

const support = await checkLocalSandboxSupport();
const SKIP = support.ok ? null : `skipped: the local sandbox cannot run on this machine (${support.missing.join("; ")})`;
if (SKIP) console.warn(`[app-process e2e] ${SKIP}`);

const BROKEN = "import { createServer } from 'node:http';\nthis is not javascript (\n";
let stack: Stack;
let page: Page;
let token: string;
const api = <T>(method: string, path: string, body?: unknown) => callApi<T>(stack.app.url, token, method, path, body);
const shot = (name: string) => page.screenshot({ path: join(ARTIFACTS, `app-process-${name}.png`) });

beforeAll(async () => {
  if (SKIP) return;
  stack = await sharedStack();
  page = await stack.newPage({ width: 1280, height: 900 });
  await signInWithGoogle(page, stack.app.url);
  token = await bearerToken(page, stack.app.url);
}, 180_000);

afterAll(async () => {
  await page
    ?.context()
    .close()
    .catch(() => {});
});

describe.skipIf(Boolean(SKIP))("the app process in the Preview", () => {
  test("a crashed app shows its last log lines in place of the frame, and Restart brings it back", async () => {
    const project = await api<Project>("POST", "/api/projects", { name: "App process" });
    await api("POST", `/api/sandbox/${project.id}/template`, { template: "node" });
    await page.goto(`${stack.app.url}/project/${project.id}/preview`);
    const status = page.getByTestId("app-status");
    await status
      .filter({ hasText: "Running on port 3000" })
      .waitFor({ timeout: 20_000 })
      .catch(async (error: unknown) => {
        await shot("not-running");
        const list = await api<ProcessInfo[]>("GET", `/api/sandbox/${project.id}/processes`).catch((e: unknown) => String(e));
        throw new Error(`status says ${JSON.stringify(await status.allTextContents())}; processes: ${JSON.stringify(list)}; ${String(error)}`);
      });
    await page.frameLocator("iframe[title^='Preview of']").getByText("Hello from Node.js").waitFor({ timeout: 20_000 });

    // The Logs panel shows app's output (the server's start line) and follows new lines live.
    await page.getByRole("button", { name: "Logs", exact: true }).click();
    await page.getByTestId("logs-panel").getByText("Started: http://0.0.0.0:3000").waitFor();

    // Break server.js and run app without --watch: it crashes at once, again and again, then stays crashed.
    const files = await api<ProjectFile[]>("GET", `/api/files/${project.id}`);
    const server = files.find((f) => f.path === "server.js")!;
    const original = (await api<{ content: string }>("GET", `/api/files/${project.id}/${server.id}`)).content;
    await api("PATCH", `/api/files/${server.id}/content`, { content: BROKEN });
    await api<ProcessInfo>("POST", `/api/sandbox/${project.id}/processes`, { name: "app", command: "node server.js" });

    const crashed = page.getByTestId("app-crashed");
    await crashed.waitFor({ timeout: 30_000 });
    await expect(status.textContent()).resolves.toContain("Crashed (exit code 1)");
    await page.getByTestId("app-crash-logs").getByText("SyntaxError", { exact: false }).first().waitFor();
    await expect(page.locator("iframe[title^='Preview of']").count()).resolves.toBe(0);
    await shot("crashed");

    // Fixed, then Restart: app runs again and the frame is back with the page.
    await api("PATCH", `/api/files/${server.id}/content`, { content: original });
    await crashed.getByRole("button", { name: "Restart" }).click();
    await status.filter({ hasText: "Running on port 3000" }).waitFor({ timeout: 20_000 });
    await expect(crashed.count()).resolves.toBe(0);
    await page.frameLocator("iframe[title^='Preview of']").getByText("Hello from Node.js").waitFor({ timeout: 20_000 });
    const list = await api<ProcessInfo[]>("GET", `/api/sandbox/${project.id}/processes`);
    expect(list.find((p) => p.name === "app")).toMatchObject({ status: "running", ports: [3000], command: "node server.js" });
    await shot("restarted");
  }, 150_000);
});
