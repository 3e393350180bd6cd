/**
 * What a signed-out visitor sees: the landing page at phone, tablet and desktop widths, the
 * theme (dark by default, kept across reloads, applied before the app's script runs), the redirects of
 * protected routes to /login with the spinner shown while the auth state loads, and the 404 page.
 * Screenshots go to e2e/artifacts/.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { unnamedControls } from "./support/a11y";
import { ARTIFACTS, type Stack, sharedStack } from "./support/stack";
import { transitionsDone } from "./support/ui";

let stack: Stack;
const url = (path: string) => `${stack.app.url}${path}`;
const shot = (page: Page, name: string, fullPage = true) => page.screenshot({ path: join(ARTIFACTS, `landing-${name}.png`), fullPage });

beforeAll(async () => {
  stack = await sharedStack();
}, 150_000);

/** Opens / and waits past the auth spinner until the landing page shows. */
async function openLanding(page: Page): Promise<void> {
  await page.goto(url("/"));
  await page.getByRole("heading", { level: 1 }).waitFor();
}

/** Where the section's top edge sits in the viewport once scrolling has settled. */
async function settledTop(page: Page, id: string): Promise<number> {
  let last = Number.NaN;
  let steady = 0;
  for (let i = 0; i < 60 && steady < 3; i++) {
    await page.waitForTimeout(100);
    const top = await page.locator(`#${id}`).evaluate((el) => Math.round(el.getBoundingClientRect().top));
    steady = top === last ? steady + 1 : 0;
    last = top;
  }
  return last;
}

describe("landing page", () => {
  test("header, hero, every section and the footer, at 1440 px", async () => {
    const page = await stack.newPage({ width: 1440, height: 900 });
    await openLanding(page);

    const header = page.getByRole("banner");
    const nav = header.getByRole("navigation", { name: "Sections" });
    for (const [label, id] of [
      ["Features", "features"],
      ["Capabilities", "capabilities"],
      ["Docs", "docs"],
      ["About", "about"],
      ["Security", "security"],
    ]) {
      expect(await nav.getByRole("link", { name: label, exact: true }).getAttribute("href")).toBe(`#${id}`);
      await page.locator(`section#${id}`).waitFor();
    }
    await header.getByRole("button", { name: "Switch to light theme" }).waitFor();
    expect(await header.getByRole("link", { name: "Get Started", exact: true }).getAttribute("href")).toBe("/login");
    expect(await page.getByRole("button", { name: "Open menu" }).isVisible()).toBe(false);

    expect(await page.getByRole("link", { name: "Get Started Free" }).first().getAttribute("href")).toBe("/login");
    await page.getByRole("heading", { name: "Security and privacy" }).waitFor();
    const docs = page.locator("#docs li h3");
    expect(await docs.allTextContents()).toEqual(["Sign in", "Create a project", "Chat with AI", "Preview and deploy"]);
    for (const words of [/chat/i, /files/i, /preview/i, /terminal/i, /sandbox/i, /self-host/i]) {
      expect(await page.locator("#features").textContent()).toMatch(words);
    }
    expect(await page.getByTestId("copyright").textContent()).toContain(`© ${new Date().getFullYear()}`);
    expect(await unnamedControls(page)).toEqual([]);
    await shot(page, "1440");

    // Learn More scrolls to Features, which ends up just below the sticky header.
    await page.getByRole("link", { name: "Learn More" }).click();
    const top = await settledTop(page, "features");
    expect(top).toBeGreaterThanOrEqual(60);
    expect(top).toBeLessThanOrEqual(70);
    expect(await header.evaluate((el) => el.getBoundingClientRect().top)).toBe(0); // still there: sticky
    await shot(page, "1440-features", false);

    // A header link scrolls too; Get Started leads to /login.
    await nav.getByRole("link", { name: "Capabilities", exact: true }).click();
    expect(await settledTop(page, "capabilities")).toBeLessThanOrEqual(70);
    await header.getByRole("link", { name: "Get Started", exact: true }).click();
    await page.waitForURL("**/login");
    await page.getByRole("button", { name: "Continue with Google" }).waitFor();
    await page.context().close();
  }, 60_000);

  test("Get Started Free leads to /login, where the card shows the terms line and Continue with Google", async () => {
    const page = await stack.newPage({ width: 768, height: 1024 });
    await openLanding(page);
    expect(await unnamedControls(page)).toEqual([]);
    await shot(page, "768");
    await page.getByRole("link", { name: "Get Started Free" }).first().click();
    await page.waitForURL("**/login");
    await page.getByText("By continuing, you agree to our Terms of Service and Privacy Policy.").waitFor();
    expect(await page.getByRole("button", { name: "Continue with Google" }).isEnabled()).toBe(true);
    await page.screenshot({ path: join(ARTIFACTS, "login-768.png") });
    await page.context().close();
  }, 30_000);

  test("at 375 px the section links are in a slide-out menu that closes and scrolls to the section", async () => {
    const page = await stack.newPage({ width: 375, height: 812 });
    await openLanding(page);
    expect(await page.getByRole("banner").getByRole("navigation", { name: "Sections" }).isVisible()).toBe(false);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBe(0); // nothing wider than the phone
    expect(await unnamedControls(page)).toEqual([]);
    await shot(page, "375");

    const opener = page.getByRole("button", { name: "Open menu" });
    await opener.click();
    const menu = page.getByRole("dialog", { name: "Menu" });
    await menu.getByRole("link", { name: "Capabilities" }).waitFor();
    expect(await menu.getByRole("link").allTextContents()).toEqual(["Features", "Capabilities", "Docs", "About", "Security", "Get Started"]);
    await transitionsDone(page);
    await shot(page, "375-menu", false);

    // Keyboard: Escape closes it and focus returns to the opener.
    await page.keyboard.press("Escape");
    await menu.waitFor({ state: "detached" });
    expect(await opener.evaluate((el) => el === document.activeElement)).toBe(true);

    await opener.click();
    await menu.getByRole("link", { name: "Docs" }).click();
    await menu.waitFor({ state: "detached" });
    expect(await settledTop(page, "docs")).toBeLessThanOrEqual(70);
    expect(new URL(page.url()).hash).toBe("#docs");
    await page.context().close();
  }, 30_000);
});

describe("theme", () => {
  test("dark by default, toggled by the button, kept across reloads, and applied before the app's script runs", async () => {
    const page = await stack.newPage();
    await openLanding(page);
    const isDark = () => page.evaluate(() => document.documentElement.classList.contains("dark"));
    expect(await isDark()).toBe(true);
    expect(await page.evaluate(() => localStorage.getItem("theme"))).toBeNull();

    await page.getByRole("button", { name: "Switch to light theme" }).click();
    expect(await isDark()).toBe(false);
    expect(await page.evaluate(() => localStorage.getItem("theme"))).toBe("light");
    await page.mouse.move(0, 400);
    await page.waitForTimeout(300); // colour transitions, for the picture
    await shot(page, "light", false);

    // Hold back the app's scripts: the page must already be light, i.e. no dark flash before React starts.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route("**/assets/*.js", async (route) => {
      await held;
      await route.fallback();
    });
    await page.goto(url("/"), { waitUntil: "commit" });
    await page.waitForFunction(() => document.body !== null);
    const early = await page.evaluate(() => ({
      dark: document.documentElement.classList.contains("dark"),
      scheme: document.documentElement.style.colorScheme,
      appRendered: (document.getElementById("root")?.childElementCount ?? 0) > 0,
    }));
    expect(early).toEqual({ dark: false, scheme: "light", appRendered: false });
    release();
    await page.getByRole("button", { name: "Switch to dark theme" }).waitFor();
    expect(await isDark()).toBe(false);

    await page.getByRole("button", { name: "Switch to dark theme" }).click();
    await page.reload();
    await page.getByRole("button", { name: "Switch to light theme" }).waitFor();
    expect(await isDark()).toBe(true);
    expect(await page.evaluate(() => localStorage.getItem("theme"))).toBe("dark");
    await page.context().close();
  }, 30_000);
});

describe("routes for a signed-out visitor", () => {
  test("every protected route sends them to /login, with a spinner while the auth state loads", async () => {
    const page = await stack.newPage();
    for (const path of ["/projects", "/project/abc/chat", "/project/abc/files", "/project/abc/preview", "/project/abc/terminal"]) {
      await page.goto(url(path));
      await page.waitForURL("**/login");
      await page.getByRole("button", { name: "Continue with Google" }).waitFor();
    }

    // Slow the auth configuration down: the spinner holds the screen until it arrives.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route("**/api/config", async (route) => {
      await held;
      await route.fallback();
    });
    await page.goto(url("/projects"));
    const spinner = page.getByRole("status", { name: "Loading" });
    await spinner.waitFor();
    expect(new URL(page.url()).pathname).toBe("/projects");
    await shot(page, "auth-loading", false);
    release();
    await page.waitForURL("**/login");
    await spinner.waitFor({ state: "detached" });
    await page.context().close();
  }, 45_000);

  test("an unknown path shows the 404 page", async () => {
    const page = await stack.newPage();
    for (const path of ["/nope", "/project/abc", "/project/abc/settings", "/projects/abc"]) {
      await page.goto(url(path));
      await page.getByRole("heading", { name: "404 Page Not Found" }).waitFor();
      await page.getByText("Did you forget to add the page to the router?").waitFor();
      expect(await page.getByRole("link", { name: "Go to the home page" }).getAttribute("href")).toBe("/");
      expect(new URL(page.url()).pathname).toBe(path);
    }
    await shot(page, "404", false);
    await page.context().close();
  }, 30_000);
});
