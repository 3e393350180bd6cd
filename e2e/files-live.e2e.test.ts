/**
 * The Files view when the server fails and when another client changes the files: real Chromium, the shared
 * app (stack.ts) and Auth emulator. A failing load, save, delete or download shows its toast (the
 * server's message first, else the fallback); a file created, renamed or deleted through the API shows up
 * in the open view within about a second, without a reload (the WebSocket path). The edit-and-download story
 * is files.e2e.test.ts. Screenshots go to e2e/artifacts/.
 */
import { beforeAll, describe, expect } from "bun:test";
import type { ProjectFile } from "@shared/schemas/file";
import type { Page } from "playwright-core";
import { fileRow, filesShot, openFiles as openFilesOf, seedFiles } from "./support/files-view";
import { bearerToken, signInWithGoogle, uniqueEmail } from "./support/sign-in";
import { callApi } from "./support/api";
import { type Stack, sharedStack } from "./support/stack";
import { stepsReporting } from "./support/step";

let stack: Stack;
let page: Page;
let token: string;
let projectId: string;

const api = <T>(method: string, path: string, body?: unknown) => callApi<T>(stack.app.url, token, method, path, body);

const toast = (text: string) => page.getByTestId("toast").filter({ hasText: text });
const row = (path: string) => fileRow(page, path);
const shot = (name: string) => filesShot(page, name);
const openFiles = () => openFilesOf(page, stack.app.url, projectId);
const step = stepsReporting({ shot, appOutput: () => stack.app.output() });

beforeAll(async () => {
  stack = await sharedStack();
  page = await stack.newPage({ width: 1280, height: 800 });
  await signInWithGoogle(page, stack.app.url, { email: uniqueEmail("files-live") });
  token = await bearerToken(page, stack.app.url);
  projectId = (await api<{ id: string }>("POST", "/api/projects", { name: "Files E2E" })).id;
  await seedFiles(api, projectId);
}, 180_000);

describe("Files view: a failing server, another client", () => {
  step("failures show their toasts: server message first, else the fallback", async () => {
    await openFiles();
    const failWith = (pattern: string, status: number, body: string) =>
      page.route(pattern, (route) => route.fulfill({ status, contentType: status === 502 ? "text/html" : "application/json", body }));

    await failWith(`**/api/files/${projectId}/*-*`, 503, JSON.stringify({ error: "Storage is not reachable", code: "unavailable" }));
    await page.getByRole("button", { name: "Edit package.json" }).click();
    await toast("Load failed").filter({ hasText: "Storage is not reachable" }).waitFor();
    await row("package.json").waitFor(); // back on the list
    await page.unroute(`**/api/files/${projectId}/*-*`);

    await page.getByRole("button", { name: "Edit package.json" }).click();
    await page.locator(".monaco-editor .view-lines").waitFor();
    expect(await page.locator("[data-mode-id]").getAttribute("data-mode-id")).toBe("json");
    await failWith("**/api/files/*/content", 502, "<h1>Bad gateway</h1>");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await toast("Save failed").filter({ hasText: "Failed to save file" }).waitFor();
    await page.getByTestId("editor-path").waitFor(); // still editing
    await page.unroute("**/api/files/*/content");
    await page.getByRole("button", { name: "Back", exact: true }).click();

    await page.route("**/api/files/*", (route) =>
      route.request().method() === "DELETE"
        ? route.fulfill({ status: 409, contentType: "application/json", body: JSON.stringify({ error: "The sandbox is busy", code: "conflict" }) })
        : route.continue(),
    );
    await page.getByRole("button", { name: "Delete package.json" }).click();
    await page.getByRole("dialog", { name: "Delete File" }).getByRole("button", { name: "Delete", exact: true }).click();
    await toast("Delete failed").filter({ hasText: "The sandbox is busy" }).waitFor();
    await page.getByRole("dialog", { name: "Delete File" }).getByRole("button", { name: "Cancel" }).click();
    await page.unroute("**/api/files/*");

    await page.route("**/api/files/*/download", (route) => route.abort("connectionreset"));
    await page.getByRole("button", { name: "Download" }).click();
    await toast("Download failed").filter({ hasText: "Failed to download files" }).waitFor();
    await page.unroute("**/api/files/*/download");
    expect(await row("package.json").count()).toBe(1);
  });

  step("a file written by another client appears within about a second, without a reload", async () => {
    await openFiles();
    await row("src/App.tsx").waitFor();
    // The socket is subscribed (the page shows "Live"); from here on the 5 s poll is not what we measure.
    await page.locator('[data-testid="files-page"][data-live="true"]').waitFor({ timeout: 10_000 });
    const navigations: string[] = [];
    page.on("framenavigated", (frame) => frame === page.mainFrame() && navigations.push(frame.url()));

    let started = performance.now();
    await api("POST", `/api/files/${projectId}`, { path: "from-another-client.ts", content: "export {};\n" });
    await row("from-another-client.ts").waitFor({ timeout: 1_500 });
    const createdMs = performance.now() - started;

    const created = (await api<ProjectFile[]>("GET", `/api/files/${projectId}`)).find((f) => f.path === "from-another-client.ts")!;
    started = performance.now();
    await api("PATCH", `/api/files/${created.id}/rename`, { newPath: "src/renamed-elsewhere.ts" });
    await row("src/renamed-elsewhere.ts").waitFor({ timeout: 1_500 });
    const renamedMs = performance.now() - started;

    started = performance.now();
    await api("DELETE", `/api/files/${created.id}`);
    await row("src/renamed-elsewhere.ts").waitFor({ state: "detached", timeout: 1_500 });
    const deletedMs = performance.now() - started;

    console.log(`live file events: created ${createdMs.toFixed(0)} ms, renamed ${renamedMs.toFixed(0)} ms, deleted ${deletedMs.toFixed(0)} ms`);
    expect(navigations).toEqual([]);
    await shot("live");
  });
});
