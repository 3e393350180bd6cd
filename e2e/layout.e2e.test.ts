/**
 * The signed-in side: sign-in redirects and the user sync, the layout's sidebar (groups,
 * footer, Ctrl/Cmd+B, the `sidebar_state` cookie, tooltips on the collapsed icons), the mobile sheet and bottom
 * bar at 375 px, Sign Out (back to /, cache cleared) and a user disabled at the provider being signed out.
 * Screenshots go to e2e/artifacts/.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { unnamedControls } from "./support/a11y";
import { signInWithGoogle, uniqueEmail } from "./support/sign-in";
import { ARTIFACTS, type Stack, sharedStack } from "./support/stack";
import { transitionsDone } from "./support/ui";

const SEVEN_DAYS_S = 604800;

let stack: Stack;
let page: Page;
let projectId: string;
const ada = { email: uniqueEmail("ada"), displayName: "Ada Lovelace", photoURL: "" };
let syncBody: Record<string, unknown> = {};

const url = (path: string) => `${stack.app.url}${path}`;
const shot = (p: Page, name: string, fullPage = false) => p.screenshot({ path: join(ARTIFACTS, `layout-${name}.png`), fullPage });
const sidebar = () => page.getByRole("complementary", { name: "Sidebar" });
const sidebarWidth = () => sidebar().evaluate((el) => Math.round(el.getBoundingClientRect().width));

/** Creates a project through the New Project dialog and returns its id (from the address it opens). */
async function createProject(p: Page, name: string): Promise<string> {
  await p.goto(url("/projects"));
  await p.getByRole("button", { name: "New Project" }).click();
  await p.getByLabel("Project Name").fill(name);
  await p.getByRole("button", { name: "Create Project" }).click();
  await p.waitForURL(/\/project\/[^/]+\/chat$/);
  return new URL(p.url()).pathname.split("/")[2]!;
}

async function sidebarCookie(p: Page) {
  return (await p.context().cookies()).find((c) => c.name === "sidebar_state");
}

beforeAll(async () => {
  stack = await sharedStack();
  ada.photoURL = url("/favicon.svg");
  page = await stack.newPage({ width: 1440, height: 900 });
  const sync = page.waitForRequest((r) => r.url().endsWith("/api/auth/sync") && r.method() === "POST", { timeout: 60_000 });
  await signInWithGoogle(page, stack.app.url, ada);
  syncBody = (await sync).postDataJSON() as Record<string, unknown>;
  projectId = await createProject(page, "Layout Project");
}, 180_000);

afterAll(async () => {
  await page?.context().close();
});

describe("signed in", () => {
  test("the user was synced at sign-in, and / and /login send them to /projects", async () => {
    expect(syncBody).toMatchObject({ email: ada.email, displayName: "Ada Lovelace", photoURL: ada.photoURL });
    expect(typeof syncBody.id).toBe("string");
    for (const path of ["/", "/login"]) {
      await page.goto(url(path));
      await page.waitForURL("**/projects");
      await page.getByRole("heading", { name: "Projects", exact: true }).waitFor();
    }
  }, 30_000);

  test("the sidebar: Navigation everywhere, Project Tools inside a project, and the user in the footer", async () => {
    await page.goto(url("/projects"));
    await page.getByRole("heading", { name: "Projects", exact: true }).waitFor();
    const navigation = sidebar().getByRole("navigation", { name: "Navigation" });
    expect(await navigation.getByRole("link", { name: "Projects" }).getAttribute("href")).toBe("/projects");
    expect(await navigation.getByRole("link", { name: "Projects" }).getAttribute("aria-current")).toBe("page");
    expect(await sidebar().getByRole("navigation", { name: "Project Tools" }).count()).toBe(0);
    expect(await page.getByRole("navigation", { name: "Project views" }).count()).toBe(0); // no bottom bar here

    // Footer: photo, name, e-mail, Sign Out.
    expect(await page.getByTestId("user-name").textContent()).toBe("Ada Lovelace");
    expect(await page.getByTestId("user-email").textContent()).toBe(ada.email);
    const photo = page.getByTestId("user-avatar").locator("img");
    expect(await photo.getAttribute("src")).toBe(ada.photoURL);
    await page.waitForFunction(() => (document.querySelector("[data-testid=user-avatar] img") as HTMLImageElement | null)?.naturalWidth);
    await sidebar().getByRole("button", { name: "Sign Out" }).waitFor();
    expect(await unnamedControls(page)).toEqual([]);
    await shot(page, "projects-1440");

    // Inside a project: the five tools, each linking to its view; the header names the project.
    await page.goto(url(`/project/${projectId}/chat`));
    const tools = sidebar().getByRole("navigation", { name: "Project Tools" });
    await tools.waitFor();
    const links = await tools.getByRole("link").evaluateAll((els) => els.map((a) => [a.textContent, a.getAttribute("href")]));
    expect(links).toEqual([
      ["Preview", `/project/${projectId}/preview`],
      ["Agent Chat", `/project/${projectId}/chat`],
      ["Files", `/project/${projectId}/files`],
      ["Database", `/project/${projectId}/database`],
      ["Terminal", `/project/${projectId}/terminal`],
    ]);
    expect(await tools.getByRole("link", { name: "Agent Chat" }).getAttribute("aria-current")).toBe("page");
    await page.getByTestId("breadcrumb-project").filter({ hasText: "Layout Project" }).waitFor();
    expect(await unnamedControls(page)).toEqual([]);
    await shot(page, "project-1440");

    // The header's right-side control switches the theme here too.
    await page.getByRole("banner").getByRole("button", { name: "Switch to light theme" }).click();
    await page.mouse.move(700, 500);
    await page.waitForTimeout(300); // colour transitions, for the picture
    await shot(page, "project-1440-light");
    await page.getByRole("banner").getByRole("button", { name: "Switch to dark theme" }).click();

    await tools.getByRole("link", { name: "Terminal" }).click();
    await page.waitForURL(`**/project/${projectId}/terminal`);
    expect(await tools.getByRole("link", { name: "Terminal" }).getAttribute("aria-current")).toBe("page");
    await tools.getByRole("link", { name: "Agent Chat" }).click();
    await page.waitForURL(`**/project/${projectId}/chat`);
  }, 45_000);

  test("Ctrl+B and Cmd+B toggle the sidebar; the choice is kept in the sidebar_state cookie for 7 days", async () => {
    await page.goto(url(`/project/${projectId}/chat`));
    await sidebar().getByRole("navigation", { name: "Project Tools" }).waitFor();
    expect(await sidebar().getAttribute("data-state")).toBe("expanded");
    expect(await sidebarWidth()).toBe(256); // 16rem

    await page.keyboard.press("Control+b");
    await page.waitForFunction(() => document.querySelector("aside")?.getBoundingClientRect().width === 48);
    expect(await sidebar().getAttribute("data-state")).toBe("collapsed");
    const cookie = await sidebarCookie(page);
    expect(cookie?.value).toBe("false");
    expect(cookie?.path).toBe("/");
    expect(Math.abs(cookie!.expires - Date.now() / 1000 - SEVEN_DAYS_S)).toBeLessThan(60);
    // Collapsed to icons, every link keeps its name.
    for (const name of ["Projects", "Preview", "Agent Chat", "Files", "Database", "Terminal", "Sign Out"]) {
      await sidebar()
        .getByRole(name === "Sign Out" ? "button" : "link", { name, exact: true })
        .waitFor();
    }
    expect(await unnamedControls(page)).toEqual([]);

    await page.reload();
    await sidebar().getByRole("navigation", { name: "Project Tools" }).waitFor();
    expect(await sidebar().getAttribute("data-state")).toBe("collapsed");
    await shot(page, "collapsed-1440");

    await page.keyboard.press("Meta+b");
    await page.waitForFunction(() => document.querySelector("aside")?.getBoundingClientRect().width === 256);
    expect((await sidebarCookie(page))?.value).toBe("true");

    // The header button does the same.
    await page.getByRole("button", { name: "Toggle Sidebar" }).click();
    expect(await sidebar().getAttribute("data-state")).toBe("collapsed");
    expect((await sidebarCookie(page))?.value).toBe("false");
    await page.getByRole("button", { name: "Toggle Sidebar" }).click();
    expect((await sidebarCookie(page))?.value).toBe("true");
  }, 45_000);

  test("collapsed icons show their label as a tooltip: after 700 ms, then at once within 300 ms of another closing", async () => {
    await page.goto(url(`/project/${projectId}/chat`));
    await sidebar().getByRole("navigation", { name: "Project Tools" }).waitFor();
    await page.keyboard.press("Control+b");
    await page.waitForFunction(() => document.querySelector("aside")?.getBoundingClientRect().width === 48);
    const tooltip = page.getByRole("tooltip");

    const preview = sidebar().getByRole("link", { name: "Preview" });
    const started = Date.now();
    await preview.hover();
    await page.waitForTimeout(400);
    expect(await tooltip.count()).toBe(0);
    await tooltip.filter({ hasText: "Preview" }).waitFor();
    expect(Date.now() - started).toBeGreaterThanOrEqual(700);
    expect(await tooltip.getAttribute("data-state")).toBe("delayed-open");
    expect(await preview.getAttribute("aria-describedby")).toBe(await tooltip.getAttribute("id"));
    await shot(page, "tooltip");

    // Straight on to the next icon: no delay.
    await sidebar().getByRole("link", { name: "Agent Chat" }).hover();
    await tooltip.filter({ hasText: "Agent Chat" }).waitFor({ timeout: 250 });
    expect(await tooltip.getAttribute("data-state")).toBe("instant-open");

    // Away for longer than the skip delay: the next one waits again.
    await page.mouse.move(900, 500);
    await tooltip.waitFor({ state: "detached" });
    await page.waitForTimeout(400);
    await sidebar().getByRole("link", { name: "Files" }).hover();
    await page.waitForTimeout(300);
    expect(await tooltip.count()).toBe(0);
    await tooltip.filter({ hasText: "Files" }).waitFor();
    await page.mouse.move(900, 500);

    // Keyboard focus opens it at once; Escape closes it.
    await sidebar().getByRole("link", { name: "Terminal" }).focus();
    await page.keyboard.press("Shift+Tab");
    await page.keyboard.press("Tab");
    await tooltip.filter({ hasText: "Terminal" }).waitFor({ timeout: 250 });
    await page.keyboard.press("Escape");
    await tooltip.waitFor({ state: "detached" });

    await page.keyboard.press("Control+b"); // expanded again for the next tests
    await page.waitForFunction(() => document.querySelector("aside")?.getBoundingClientRect().width === 256);
    expect(await tooltip.count()).toBe(0); // expanded: labels show, no tooltips
  }, 45_000);

  test("at 768 px the sidebar sits beside the page", async () => {
    await page.setViewportSize({ width: 768, height: 1024 });
    await page.goto(url("/projects"));
    await page.getByRole("heading", { name: "Projects", exact: true }).waitFor();
    expect(await sidebar().isVisible()).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBe(0);
    await shot(page, "projects-768");
    await page.setViewportSize({ width: 1440, height: 900 });
  }, 30_000);

  test("Sign Out returns to / and clears the cache: the next user does not see the last one's projects", async () => {
    await page.goto(url("/projects"));
    await page.getByTestId("project-card").filter({ hasText: "Layout Project" }).waitFor();
    await sidebar().getByRole("button", { name: "Sign Out" }).click();
    await page.waitForURL((u) => u.pathname === "/");
    await page.getByRole("heading", { level: 1 }).waitFor();
    await page.goto(url("/projects"));
    await page.waitForURL("**/login");

    const list = page.waitForRequest((r) => r.url().endsWith("/api/projects") && r.method() === "GET", { timeout: 60_000 });
    await signInWithGoogle(page, stack.app.url, { email: uniqueEmail("next") });
    await list; // fetched afresh, not served from the cache
    await page.getByText("No projects yet").waitFor();
    expect(await page.getByTestId("project-card").count()).toBe(0);
    // No name, no photo: "User" and "U".
    expect(await page.getByTestId("user-name").textContent()).toBe("User");
    expect(await page.getByTestId("user-avatar").textContent()).toBe("U");
  }, 60_000);
});

describe("signed out by the provider", () => {
  test("a user disabled at the identity provider is signed out", async () => {
    const p = await stack.newPage();
    const sync = p.waitForRequest((r) => r.url().endsWith("/api/auth/sync"), { timeout: 60_000 });
    await signInWithGoogle(p, stack.app.url, { email: uniqueEmail("disabled"), displayName: "zoë" });
    const { id } = (await sync).postDataJSON() as { id: string };
    expect(await p.getByTestId("user-avatar").textContent()).toBe("Z");

    const res = await fetch(`http://${stack.emulatorHost}/identitytoolkit.googleapis.com/v1/projects/${stack.projectId}/accounts:update`, {
      method: "POST",
      headers: { Authorization: "Bearer owner", "Content-Type": "application/json" },
      body: JSON.stringify({ localId: id, disableUser: true }),
    });
    expect(res.ok).toBe(true);
    await p.reload();
    await p.waitForURL("**/login");
    await p.getByRole("button", { name: "Continue with Google" }).waitFor();
    await p.context().close();
  }, 60_000);
});

describe("at 375 px", () => {
  test("the sidebar is an off-canvas sheet, and inside a project a bottom bar offers the five views", async () => {
    const p = await stack.newPage({ width: 375, height: 812 });
    await signInWithGoogle(p, stack.app.url, { email: uniqueEmail("phone"), displayName: "Phone User" });
    await p.getByRole("heading", { name: "Projects", exact: true }).waitFor();
    expect(await p.getByRole("complementary", { name: "Sidebar" }).isVisible()).toBe(false);
    expect(await p.getByRole("navigation", { name: "Project views" }).count()).toBe(0);
    expect(await p.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBe(0);
    expect(await unnamedControls(p)).toEqual([]);
    await shot(p, "projects-375", true);

    // The toggle opens the sheet; Escape closes it.
    await p.getByRole("button", { name: "Toggle Sidebar" }).click();
    const sheet = p.getByRole("dialog", { name: "App Builder" });
    await sheet.getByRole("link", { name: "Projects" }).waitFor();
    await transitionsDone(p);
    await shot(p, "sheet-375");
    await p.keyboard.press("Escape");
    await sheet.waitFor({ state: "detached" });

    const id = await createProject(p, "Phone Project");
    const bar = p.getByRole("navigation", { name: "Project views" });
    await bar.waitFor();
    const items = await bar.getByRole("link").evaluateAll((els) => els.map((a) => [a.textContent, a.getAttribute("href")]));
    expect(items).toEqual([
      ["Preview", `/project/${id}/preview`],
      ["Agent", `/project/${id}/chat`],
      ["Files", `/project/${id}/files`],
      ["Data", `/project/${id}/database`],
      ["Terminal", `/project/${id}/terminal`],
    ]);
    expect(await bar.getByRole("link", { name: "Agent" }).getAttribute("aria-current")).toBe("page");
    await p.getByTestId("toast").getByRole("button", { name: "Close" }).click(); // a clean picture
    await shot(p, "project-375");

    await bar.getByRole("link", { name: "Terminal" }).click();
    await p.waitForURL(`**/project/${id}/terminal`);
    expect(await bar.getByRole("link", { name: "Terminal" }).getAttribute("aria-current")).toBe("page");

    // Ctrl+B opens the sheet on mobile; it holds the project tools, and following one closes it.
    await p.keyboard.press("Control+b");
    await sheet.getByRole("navigation", { name: "Project Tools" }).waitFor();
    expect(await sheet.getByTestId("user-name").textContent()).toBe("Phone User");
    await transitionsDone(p);
    await shot(p, "sheet-project-375");
    await sheet.getByRole("link", { name: "Preview" }).click();
    await p.waitForURL(`**/project/${id}/preview`);
    await sheet.waitFor({ state: "detached" });
    expect(await p.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBe(0);
    await p.context().close();
  }, 90_000);
});
