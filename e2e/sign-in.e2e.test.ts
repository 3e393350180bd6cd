/**
 * The spine, end to end: a visitor signs in with Google (the Auth emulator's popup), creates a project and
 * finds it again after a reload. Real browser (Debian Chromium), real app (`bun api/src/index.ts` serving
 * web/dist), real Auth emulator, embedded database in a temp folder.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { startAuthEmulator } from "../api/src/auth/emulator";
import { silentLogger } from "../api/src/lib/logger";
import { type AppServer, startApp } from "./support/app-server";
import { launchBrowser, newOfflineContext } from "./support/browser";
import { freePort } from "./support/free-port";
import { ensureWebBuilt } from "./support/web-build";

const PROJECT_ID = "demo-e2e";
const STEP_MS = 15_000;

const cleanups: Array<() => Promise<unknown> | unknown> = [];
let app: AppServer;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  ensureWebBuilt();
  const dataDir = mkdtempSync(join(tmpdir(), "e2e-sign-in-"));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));

  const emulatorPort = await freePort();
  const emulator = await startAuthEmulator({
    projectId: PROJECT_ID,
    host: "127.0.0.1",
    port: emulatorPort,
    dataDir,
    log: silentLogger,
  });
  cleanups.push(() => emulator.stop());

  app = await startApp({
    port: await freePort(),
    dataDir,
    emulatorHost: `127.0.0.1:${emulatorPort}`,
    projectId: PROJECT_ID,
  });
  cleanups.push(() => app.stop());

  browser = await launchBrowser();
  cleanups.push(() => browser.close());
  page = await (await newOfflineContext(browser)).newPage();
  page.setDefaultTimeout(STEP_MS);
}, 150_000);

afterAll(async () => {
  // Newest first: browser, then app, then emulator, then the data folder. One failure must not stop the rest.
  for (const cleanup of cleanups.reverse()) {
    try {
      await cleanup();
    } catch (err) {
      console.error("cleanup failed:", err);
    }
  }
}, 30_000);

test("a visitor signs in with Google, creates a project and still sees it after a reload", async () => {
  try {
    // Landing → login.
    await page.goto(`${app.url}/`);
    await page.getByRole("link", { name: "Get Started" }).click();
    await page.waitForURL("**/login");
    const googleButton = page.getByRole("button", { name: /Continue with Google|Signing in\.\.\./ });
    expect(await googleButton.textContent()).toContain("Continue with Google");
    await page.getByText("Terms of Service and Privacy Policy").waitFor();

    // The emulator's popup: add an account with generated details.
    const popupOpened = page.waitForEvent("popup");
    await googleButton.click();
    const popup = await popupOpened;
    expect(await googleButton.textContent()).toContain("Signing in...");
    expect(await googleButton.isDisabled()).toBe(true);
    await popup.getByText("Add new account").click();
    await popup.getByText("Auto-generate user information").click();
    await popup.locator("#sign-in").click();

    // Signed in: welcomed and moved to /projects, which starts empty.
    await page.getByTestId("toast").filter({ hasText: "Welcome!" }).waitFor();
    await page.waitForURL("**/projects");
    await page.getByRole("heading", { name: "Projects", exact: true }).waitFor();
    await page.getByText("Manage your AI-powered coding projects").waitFor();
    await page.getByText("No projects yet").waitFor();
    expect(await page.getByTestId("user-email").textContent()).toContain("@example.com");

    // New Project: an empty name is refused, a named one is created and opened.
    await page.getByRole("button", { name: "New Project" }).click();
    // The dialog element itself has no box (its panel is position: fixed), so wait for what it shows.
    const dialog = page.getByRole("dialog", { name: "Create New Project" });
    await dialog.getByText("Create New Project").waitFor();
    await dialog.getByRole("button", { name: "Create Project" }).click();
    await page.getByTestId("toast").filter({ hasText: "Name required" }).filter({ hasText: "Please enter a project name." }).waitFor();
    await dialog.getByLabel("Project Name").fill("Spine Project");
    await dialog.getByLabel("Description (optional)").fill("Made by the end-to-end test");
    await dialog.getByRole("button", { name: "Create Project" }).click();
    await page.waitForURL(/\/project\/[0-9a-f-]{36}\/chat$/);
    await page.getByTestId("toast").filter({ hasText: "Project created" }).waitFor();
    await page.getByRole("heading", { name: "Agent Chat" }).waitFor();
    await page.getByTestId("project-name").filter({ hasText: "Spine Project" }).waitFor();

    // Back to the list: the project is there, and still there after a reload (read back from the database).
    await page.getByRole("link", { name: "← Projects" }).click();
    const card = page.getByTestId("project-card").filter({ hasText: "Spine Project" });
    await card.waitFor();
    expect(await card.textContent()).toContain("Made by the end-to-end test");
    await page.reload();
    await card.waitFor();
    expect(await page.getByTestId("project-card").count()).toBe(1);
    expect(new URL(page.url()).pathname).toBe("/projects");

    const shots = mkdtempSync(join(tmpdir(), "e2e-shots-"));
    await page.screenshot({ path: join(shots, "projects.png"), fullPage: true });
    console.log(`screenshot: ${join(shots, "projects.png")}`);
  } catch (err) {
    console.error(`--- app output ---\n${app.output()}`);
    throw err;
  }
}, 90_000);
