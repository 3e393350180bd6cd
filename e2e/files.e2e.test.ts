/**
 * The Files view end to end: real Chromium, real app serving
 * web/dist, real Auth emulator. Files are seeded through the API with the signed-in user's token, then
 * listed, searched, edited in Monaco, renamed, deleted and downloaded as a ZIP read back with jszip, one
 * step after another on the same project. Failing servers and other clients' changes: files-live.e2e.test.ts.
 * Screenshots go to e2e/artifacts/.
 */
import { afterAll, beforeAll, describe, expect } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ProjectFile } from "@shared/schemas/file";
import JSZip from "jszip";
import type { Page } from "playwright-core";
import type { AppServer } from "./support/app-server";
import { APP_TSX, BINARY_TEXT, fileRow, filesShot, openFiles as openFilesOf, seedFiles, SEED } from "./support/files-view";
import { startOwnStack } from "./support/own-stack";
import { bearerToken, signInWithGoogle } from "./support/sign-in";
import { callApi, runCleanups } from "./support/api";
import { ARTIFACTS } from "./support/stack";
import { stepsReporting } from "./support/step";

const PROJECT_ID = "demo-e2e-files";

const cleanups: Array<() => Promise<unknown> | unknown> = [];
let app: AppServer;
let page: Page;
let token: string;
let projectId: string;
let emptyProjectId: string;
/** Requests of the app's page that the offline browser context refused (anything not on loopback). */
const refused: string[] = [];

const api = <T>(method: string, path: string, body?: unknown) => callApi<T>(app.url, token, method, path, body);

const toast = (text: string) => page.getByTestId("toast").filter({ hasText: text });
const row = (path: string) => fileRow(page, path);
const rowPaths = () => page.getByTestId("file-row").evaluateAll((rows) => rows.map((r) => r.getAttribute("data-path")));
const shot = (name: string) => filesShot(page, name);
/** Monaco draws spaces as non-breaking spaces, one div per line. */
const editorText = () =>
  page.locator(".monaco-editor .view-lines").evaluate((el) => {
    const lines = [...el.querySelectorAll<HTMLElement>(".view-line")].sort((a, b) => parseFloat(a.style.top) - parseFloat(b.style.top));
    return lines.map((l) => (l.textContent ?? "").replace(/\u00a0/g, " ")).join("\n");
  });

/** Waits until Monaco shows the text (its spaces are non-breaking). */
const waitForEditorText = (text: string) =>
  page.waitForFunction((wanted) => (document.querySelector(".monaco-editor .view-lines")?.textContent ?? "").replace(/\u00a0/g, " ").includes(wanted), text);

const openFiles = (id = projectId) => openFilesOf(page, app.url, id);

beforeAll(async () => {
  const dataDir = mkdtempSync(join(tmpdir(), "e2e-files-"));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  ({ app, page } = await startOwnStack({ projectId: PROJECT_ID, dataDir, cleanups }));
  // The app's own page only: the emulator's sign-in popup loads its styles from unpkg, and is not ours.
  page.on("requestfailed", (r) => {
    if (r.failure()?.errorText.includes("INTERNET_DISCONNECTED")) refused.push(r.url());
  });

  // Sign in through the emulator's Google popup, then take the bearer token from the SPA's own request.
  await signInWithGoogle(page, app.url);
  token = await bearerToken(page, app.url);

  projectId = (await api<{ id: string }>("POST", "/api/projects", { name: "Files E2E" })).id;
  emptyProjectId = (await api<{ id: string }>("POST", "/api/projects", { name: "Empty One" })).id;
  await seedFiles(api, projectId);
}, 180_000);

afterAll(async () => {
  await runCleanups(cleanups);
}, 30_000);

/** Prints the app's log when a step fails, so a failure explains itself. */
const step = stepsReporting({ shot, appOutput: () => app.output() });

describe("Files view", () => {
  step("an empty project says so, with no Download button and no search box", async () => {
    await openFiles(emptyProjectId);
    await page.getByText("No files yet", { exact: true }).waitFor();
    await page.getByText("Start chatting with the AI to create files for your project. They'll appear here automatically.", { exact: true }).waitFor();
    await page.getByText("Stored in S3 and synced with E2B sandbox", { exact: true }).waitFor();
    expect(await page.getByTestId("file-count").textContent()).toBe("0 files");
    expect(await page.getByRole("button", { name: "Download" }).count()).toBe(0);
    expect(await page.getByRole("searchbox").count()).toBe(0);
    await shot("empty");
  });

  step("lists every file with icon, path, size, time, extension badge and per-file actions", async () => {
    await openFiles();
    await row("src/App.tsx").waitFor();
    expect(await page.getByTestId("file-count").textContent()).toBe("7 files");
    expect(await rowPaths()).toEqual([...Object.keys(SEED), "public/logo.bin"].sort());
    await page.getByRole("button", { name: "Download" }).waitFor();

    const big = row("notes/big.txt");
    expect(await big.getByTestId("file-size").textContent()).toBe("1.5 KB");
    expect(await big.getByTestId("file-ext").textContent()).toBe("TXT");
    expect(await big.locator("time").textContent()).toMatch(/now|second|minute/);
    expect(await row("README.md").getByTestId("file-ext").textContent()).toBe("MD");
    expect(await row("src/App.tsx").getByTestId("file-size").textContent()).toBe(`${new TextEncoder().encode(APP_TSX).length} B`);
    expect(await row("src/App.tsx").locator("[data-kind]").getAttribute("data-kind")).toBe("code");
    expect(await row("README.md").locator("[data-kind]").getAttribute("data-kind")).toBe("text");
    for (const action of ["Edit", "Rename", "Delete"]) {
      await page.getByRole("button", { name: `${action} src/App.tsx`, exact: true }).waitFor();
    }
    await shot("list");

    await page.setViewportSize({ width: 375, height: 740 });
    await shot("list-375");
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  step("search is a case-insensitive substring match on the path, with its own empty state", async () => {
    await openFiles();
    const search = page.getByRole("searchbox", { name: "Search files" });
    await search.fill("SRC/");
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="file-row"]').length === 2);
    expect(await rowPaths()).toEqual(["src/App.tsx", "src/index.css"]);
    await search.fill("app");
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="file-row"]').length === 1);
    expect(await rowPaths()).toEqual(["src/App.tsx"]);

    await search.fill("no-such-thing");
    await page.getByText("No files found", { exact: true }).waitFor();
    await page.getByText('No files match your search "no-such-thing"', { exact: true }).waitFor();
    await shot("search-empty");
    await search.fill("");
    await row("README.md").waitFor();
    expect(await page.getByTestId("file-row").count()).toBe(7);
  });

  step("Edit opens Monaco; Save reads 'Saving...', returns to the list, and a reload shows the new content", async () => {
    await openFiles();
    await page.getByRole("button", { name: "Edit src/App.tsx" }).click();
    expect(await page.getByTestId("editor-path").textContent()).toBe("src/App.tsx");
    await page.locator(".monaco-editor .view-lines").waitFor();
    await waitForEditorText("Hello from the seed");
    expect(await editorText()).toBe(APP_TSX);
    // Dark theme, language from the extension.
    expect(await page.locator(".monaco-editor").first().getAttribute("class")).toContain("vs-dark");
    expect(await page.locator("[data-mode-id]").getAttribute("data-mode-id")).toBe("typescript");
    await shot("editor");
    // Monaco and its workers come from our own bundle: nothing was asked of a CDN.
    expect(refused).toEqual([]);

    // Back leaves without saving.
    await page.getByRole("button", { name: "Back", exact: true }).click();
    await row("src/App.tsx").waitFor();

    await page.getByRole("button", { name: "Edit src/App.tsx" }).click();
    await waitForEditorText("Hello from the seed");
    await page.locator(".monaco-editor .view-lines").click();
    await page.keyboard.press("ControlOrMeta+A");
    await page.keyboard.press("Delete");
    await page.keyboard.insertText("export const saved = 42;");
    await page.getByText("Unsaved changes").waitFor();

    // Hold the save for a moment so 'Saving...' can be seen.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    await page.route("**/api/files/*/content", async (route) => {
      await held;
      await route.continue();
    });
    await page.getByRole("button", { name: "Save", exact: true }).click();
    const saving = page.getByRole("button", { name: "Saving..." });
    await saving.waitFor();
    expect(await saving.isDisabled()).toBe(true);
    release();
    await toast("File saved").waitFor();
    await row("src/App.tsx").waitFor(); // back on the list
    await page.unroute("**/api/files/*/content");

    const files = await api<ProjectFile[]>("GET", `/api/files/${projectId}`);
    const appFile = files.find((f) => f.path === "src/App.tsx")!;
    expect((await api<{ content: string; binary: boolean }>("GET", `/api/files/${projectId}/${appFile.id}`)).content).toBe("export const saved = 42;");
    expect(await row("src/App.tsx").getByTestId("file-size").textContent()).toBe("24 B");

    await page.reload();
    await page.getByRole("button", { name: "Edit src/App.tsx" }).click();
    await waitForEditorText("saved");
    expect(await editorText()).toBe("export const saved = 42;");
    await page.getByRole("button", { name: "Back", exact: true }).click();
  });

  step("a binary file is listed but not opened in the editor", async () => {
    await openFiles();
    await page.getByRole("button", { name: "Edit public/logo.bin" }).click();
    await page.getByTestId("binary-notice").waitFor();
    expect(await page.getByTestId("binary-notice").textContent()).toContain("can't be opened in the editor");
    expect(await page.locator(".monaco-editor").count()).toBe(0);
    expect(await page.getByRole("button", { name: "Save", exact: true }).count()).toBe(0);
    await shot("binary");
    await page.getByRole("button", { name: "Back", exact: true }).click();
    await row("public/logo.bin").waitFor();
  });

  step("Rename is disabled when empty or unchanged, reports a taken path, and closes after a success", async () => {
    await openFiles();
    await page.getByRole("button", { name: "Rename README.md" }).click();
    const dialog = page.getByRole("dialog", { name: "Rename File" });
    await dialog.getByText("Rename File").waitFor();
    const input = dialog.getByLabel("File path");
    const rename = dialog.getByRole("button", { name: "Rename", exact: true });
    expect(await input.inputValue()).toBe("README.md");
    expect(await input.getAttribute("placeholder")).toBe("src/App.tsx");
    await dialog.getByRole("button", { name: "Cancel" }).waitFor();
    expect(await rename.isDisabled()).toBe(true); // unchanged
    await shot("rename-dialog");
    await input.fill("");
    expect(await rename.isDisabled()).toBe(true); // empty
    await input.fill("   ");
    expect(await rename.isDisabled()).toBe(true); // blank
    await input.fill(" README.md ");
    expect(await rename.isDisabled()).toBe(true); // unchanged once trimmed

    await input.fill("package.json");
    expect(await rename.isDisabled()).toBe(false);
    await rename.click();
    await toast("Rename failed").filter({ hasText: "A file already exists at package.json." }).waitFor();
    await dialog.getByText("Rename File").waitFor(); // still open

    // While the rename is on its way, the button is disabled.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    await page.route("**/api/files/*/rename", async (route) => {
      await held;
      await route.continue();
    });
    await input.fill("docs/README.md");
    await rename.click();
    await page.waitForFunction(() => [...document.querySelectorAll("button")].some((b) => b.textContent === "Rename" && b.disabled));
    release();
    await toast("File renamed").waitFor();
    await page.getByRole("dialog", { name: "Rename File" }).waitFor({ state: "detached" });
    await page.unroute("**/api/files/*/rename");
    await row("docs/README.md").waitFor();
    expect(await row("README.md").count()).toBe(0);
  });

  step("Delete asks first; Cancel keeps the file, Delete removes it", async () => {
    await openFiles();
    await page.getByRole("button", { name: "Delete src/index.css" }).click();
    const dialog = page.getByRole("dialog", { name: "Delete File" });
    await dialog
      .getByText("Are you sure you want to delete src/index.css? This will remove it from S3 storage and E2B sandbox. This action cannot be undone.", {
        exact: true,
      })
      .waitFor();
    await page.waitForTimeout(300); // let the dialog finish fading in before the screenshot
    await shot("delete-dialog");
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await dialog.waitFor({ state: "detached" });
    expect(await row("src/index.css").count()).toBe(1);

    await page.getByRole("button", { name: "Delete src/index.css" }).click();
    await page.getByRole("dialog", { name: "Delete File" }).getByRole("button", { name: "Delete", exact: true }).click();
    await toast("File deleted").waitFor();
    await row("src/index.css").waitFor({ state: "detached" });
    expect(await page.getByTestId("file-count").textContent()).toBe("6 files");
    const paths = (await api<ProjectFile[]>("GET", `/api/files/${projectId}`)).map((f) => f.path);
    expect(paths).not.toContain("src/index.css");
  });

  step("Download saves {projectName}-source.zip with every file, binary bytes intact", async () => {
    await openFiles();
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    await page.route("**/api/files/*/download", async (route) => {
      await held;
      await route.continue();
    });
    const downloaded = page.waitForEvent("download");
    await page.getByRole("button", { name: "Download" }).click();
    await toast("Preparing download").filter({ hasText: "Creating ZIP file..." }).waitFor();
    release();
    const download = await downloaded;
    await page.unroute("**/api/files/*/download");
    expect(download.suggestedFilename()).toBe("Files E2E-source.zip");
    await toast("Download complete").filter({ hasText: "Downloaded 6 files as ZIP" }).waitFor();

    const zipPath = join(ARTIFACTS, "files-download.zip");
    await download.saveAs(zipPath);
    const zip = await JSZip.loadAsync(readFileSync(zipPath));
    const entries = Object.values(zip.files)
      .filter((f) => !f.dir)
      .map((f) => f.name)
      .sort();
    expect(entries).toEqual(["docs/README.md", "notes/big.txt", "package.json", "public/logo.bin", "scripts/run.sh", "src/App.tsx"]);
    expect(await zip.file("src/App.tsx")!.async("string")).toBe("export const saved = 42;");
    expect(await zip.file("docs/README.md")!.async("string")).toBe(SEED["README.md"]!);
    expect(await zip.file("notes/big.txt")!.async("string")).toBe(SEED["notes/big.txt"]!);
    expect(await zip.file("package.json")!.async("string")).toBe(SEED["package.json"]!);
    const logo = await zip.file("public/logo.bin")!.async("uint8array");
    expect([...logo]).toEqual([...new TextEncoder().encode(BINARY_TEXT)]);
    await shot("downloaded");
  });

  step("a project over the browser's zip limit downloads the ZIP the server streams", async () => {
    // The list reports one file as 25 MB, past the 20 MB the browser zips itself; the bytes stay small.
    await page.route(`**/api/files/${projectId}`, async (route) => {
      if (route.request().method() !== "GET") return route.fallback();
      const response = await route.fetch();
      const list = (await response.json()) as ProjectFile[];
      await route.fulfill({ response, json: list.map((f) => (f.path === "notes/big.txt" ? { ...f, size: 25 * 1024 * 1024 } : f)) });
    });
    const asked: string[] = [];
    const record = (r: { url(): string }) => void asked.push(new URL(r.url()).pathname);
    page.on("request", record);
    try {
      await openFiles();
      const downloaded = page.waitForEvent("download");
      await page.getByRole("button", { name: "Download" }).click();
      const download = await downloaded;
      expect(download.suggestedFilename()).toBe("Files E2E-source.zip");
      await toast("Download complete").filter({ hasText: "Downloaded 6 files as ZIP" }).waitFor();
      expect(asked).toContain(`/api/files/${projectId}/download.zip`);
      expect(asked).not.toContain(`/api/files/${projectId}/download`);
      const zipPath = join(ARTIFACTS, "files-download-streamed.zip");
      await download.saveAs(zipPath);
      const zip = await JSZip.loadAsync(readFileSync(zipPath));
      expect(await zip.file("notes/big.txt")!.async("string")).toBe(SEED["notes/big.txt"]!);
      expect([...(await zip.file("public/logo.bin")!.async("uint8array"))]).toEqual([...new TextEncoder().encode(BINARY_TEXT)]);
    } finally {
      page.off("request", record);
      await page.unroute(`**/api/files/${projectId}`);
    }
  });
});
