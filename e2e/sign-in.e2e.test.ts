/**
 * The spine, end to end: a visitor signs in with Google (the Auth emulator's popup), creates a project and
 * finds it again after a reload. Real browser (Debian Chromium), real app (`bun api/src/index.ts` serving
 * web/dist), real Auth emulator, embedded database in a temp folder (the stack shared by the UI test files).
 * Then the ways sign-in fails: popup blocked, network down, popup closed.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import type { Page } from "playwright-core";
import type { AppServer } from "./support/app-server";
import { openSignInPopup } from "./support/sign-in";
import { ARTIFACTS, type Stack, sharedStack } from "./support/stack";

let stack: Stack;
let app: AppServer;
let page: Page;

beforeAll(async () => {
  stack = await sharedStack();
  app = stack.app;
  page = await stack.newPage();
}, 150_000);

test("a visitor signs in with Google, creates a project and still sees it after a reload", async () => {
  try {
    // Landing → login.
    await page.goto(`${app.url}/`);
    await page.getByRole("link", { name: "Get Started", exact: true }).click();
    await page.waitForURL("**/login");
    const googleButton = page.getByRole("button", { name: /Continue with Google|Signing in\.\.\./ });
    expect(await googleButton.textContent()).toContain("Continue with Google");
    await page.getByText("Terms of Service and Privacy Policy").waitFor();

    // The emulator's popup: add an account with generated details.
    const popupOpened = page.waitForEvent("popup", { timeout: 45_000 });
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
    await page.getByTestId("breadcrumb-project").filter({ hasText: "Spine Project" }).waitFor();

    // Back to the list: the project is there, and still there after a reload (read back from the database).
    await page.getByRole("complementary", { name: "Sidebar" }).getByRole("link", { name: "Projects" }).click();
    const card = page.getByTestId("project-card").filter({ hasText: "Spine Project" });
    await card.waitFor();
    expect(await card.textContent()).toContain("Made by the end-to-end test");
    await page.reload();
    await card.waitFor();
    expect(await page.getByTestId("project-card").count()).toBe(1);
    expect(new URL(page.url()).pathname).toBe("/projects");

    await page.screenshot({ path: join(ARTIFACTS, "sign-in-projects.png"), fullPage: true });
    await page.context().close();
  } catch (err) {
    console.error(`--- app output ---\n${app.output()}`);
    throw err;
  }
}, 90_000);

describe("sign-in failures", () => {
  const failure = (p: Page, reason: string) => p.getByTestId("toast").filter({ hasText: "Sign in failed" }).filter({ hasText: reason });

  async function openLogin(p: Page) {
    await p.goto(`${app.url}/login`);
    await p.getByRole("button", { name: "Continue with Google" }).waitFor();
  }

  test("a blocked popup says so, and the button is usable again", async () => {
    const p = await stack.newPage();
    await p.addInitScript(() => {
      window.open = () => null; // what a popup blocker does
    });
    await openLogin(p);
    await p.getByRole("button", { name: "Continue with Google" }).click();
    await failure(p, "The browser blocked the sign-in window. Allow pop-ups for this site and try again.").waitFor();
    expect(await p.getByTestId("toast").getAttribute("data-variant")).toBe("destructive");
    expect(await p.getByRole("button", { name: "Continue with Google" }).isEnabled()).toBe(true);
    await p.screenshot({ path: join(ARTIFACTS, "login-popup-blocked.png") });
    await p.context().close();
  }, 30_000);

  test("a network failure after the popup says so", async () => {
    const p = await stack.newPage();
    await p.route("**/accounts:signInWithIdp**", (route) => route.abort("internetdisconnected"));
    const popup = await openSignInPopup(p, app.url);
    await popup.getByText("Add new account").click();
    await popup.getByText("Auto-generate user information").click();
    await popup.locator("#sign-in").click();
    await failure(p, "Could not reach the sign-in service. Check your connection and try again.").waitFor({ timeout: 30_000 });
    expect(new URL(p.url()).pathname).toBe("/login");
    await p.context().close();
  }, 60_000);

  test("closing the popup says so", async () => {
    const p = await stack.newPage();
    const popup = await openSignInPopup(p, app.url);
    await popup.getByText("Add new account").waitFor();
    await popup.close();
    // The SDK waits a few seconds after the window closes in case a result is still on its way.
    await failure(p, "The sign-in window was closed before sign-in finished.").waitFor({ timeout: 20_000 });
    expect(await p.getByRole("button", { name: "Continue with Google" }).isEnabled()).toBe(true);
    await p.context().close();
  }, 45_000);
});
