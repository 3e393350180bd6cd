/**
 * /projects: skeletons while loading, the empty state, the New Project dialog with its
 * validation toast, the card grid (1/2/3 columns, one-line name, two-line description, sandbox id, relative
 * time), opening a project, deleting one behind the browser's confirmation, and "Import from ZIP" (a refused
 * zip's reason in the dialog, then a project from a zip with its files); then the toast system itself:
 * one at a time, 5000 ms, swipe right to dismiss, F8. Screenshots go to e2e/artifacts/.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import JSZip from "jszip";
import type { Locator, Page } from "playwright-core";
import { unnamedControls } from "./support/a11y";
import { callApi } from "./support/api";
import { bearerToken, signInWithGoogle, uniqueEmail } from "./support/sign-in";
import { ARTIFACTS, type Stack, sharedStack } from "./support/stack";
import { transitionsDone } from "./support/ui";

const CONFIRMATION = "Are you sure you want to delete this project?";
const LONG_NAME = "A project name that is far too long to fit on one line of a card in the grid, however wide";
const LONG_DESCRIPTION =
  "A description that goes on and on: it explains the idea, the audience, the colour scheme, the data model, " +
  "the deployment plan and several other things, so that it cannot possibly fit into two lines of a card.";

let stack: Stack;
let page: Page;
let token: string;
const url = (path: string) => `${stack.app.url}${path}`;
const shot = (name: string, fullPage = false) => page.screenshot({ path: join(ARTIFACTS, `projects-${name}.png`), fullPage });
const toast = (text: string) => page.getByTestId("toast").filter({ hasText: text });
const card = (name: string) => page.getByTestId("project-card").filter({ has: page.getByRole("heading", { name, exact: true }) });

const seed = (name: string, description?: string) => callApi<{ id: string }>(stack.app.url, token, "POST", "/api/projects", { name, description });

async function openProjects(): Promise<void> {
  await page.goto(url("/projects"));
  await page.getByRole("heading", { name: "Projects", exact: true }).waitFor();
}

async function closeToasts(): Promise<void> {
  for (const button of await page.getByTestId("toast").getByRole("button", { name: "Close" }).all()) await button.click();
  await page.getByTestId("toast").waitFor({ state: "detached" });
}

/** Waits until the project grid lays out this many columns (the sidebar animates its width). */
async function expectColumns(count: number): Promise<void> {
  const grid = await page.getByRole("main").locator(".grid").first().elementHandle();
  await page.waitForFunction(([el, n]) => getComputedStyle(el as Element).gridTemplateColumns.split(" ").length === n, [grid, count] as const, {
    timeout: 5_000,
  });
}

beforeAll(async () => {
  stack = await sharedStack();
  page = await stack.newPage({ width: 1440, height: 900 });
  await signInWithGoogle(page, stack.app.url, { email: uniqueEmail("projects"), displayName: "Grace Hopper" });
  token = await bearerToken(page, stack.app.url);
}, 180_000);

afterAll(async () => {
  await page?.context().close();
});

describe("the project list", () => {
  test("three skeleton cards while loading, then the empty state", async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route("**/api/projects", async (route) => {
      if (route.request().method() === "GET") await held;
      await route.fallback();
    });
    await page.goto(url("/projects"));
    await page.getByRole("heading", { name: "Projects", exact: true }).waitFor();
    await page.getByText("Manage your AI-powered coding projects").waitFor();
    await page.getByTestId("project-skeleton").first().waitFor();
    expect(await page.getByTestId("project-skeleton").count()).toBe(3);
    await shot("loading");
    release();
    await page.getByText("No projects yet").waitFor();
    expect(await page.getByTestId("project-skeleton").count()).toBe(0);
    await page.unroute("**/api/projects");
    await closeToasts().catch(() => {});
    await page.getByRole("button", { name: "Create Your First Project" }).waitFor();
    expect(await unnamedControls(page)).toEqual([]);
    await shot("empty");
  }, 45_000);

  test("New Project: an empty name is refused with a toast, Escape closes the dialog, a named project opens in chat", async () => {
    await openProjects();
    await page.getByRole("button", { name: "Create Your First Project" }).click();
    const dialog = page.getByRole("dialog", { name: "Create New Project" });
    const name = dialog.getByLabel("Project Name");
    await name.waitFor();
    expect(await name.evaluate((el) => el === document.activeElement)).toBe(true); // keyboard-ready
    await transitionsDone(page);
    await shot("new-dialog");

    for (const attempt of ["", "   "]) {
      await name.fill(attempt);
      await dialog.getByRole("button", { name: "Create Project" }).click();
      await toast("Name required").filter({ hasText: "Please enter a project name." }).waitFor();
      expect(await page.getByTestId("toast").count()).toBe(1); // at most one toast
      expect(await toast("Name required").getAttribute("data-variant")).toBe("destructive");
    }
    await shot("validation-toast");
    // The toast stays usable over the open dialog.
    await toast("Name required").getByRole("button", { name: "Close" }).click();
    await page.getByTestId("toast").waitFor({ state: "detached" });

    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });

    await page.getByRole("button", { name: "New Project" }).click();
    await dialog.getByLabel("Project Name").fill("  First Project  ");
    await dialog.getByLabel("Description (optional)").fill("Made in the projects test");
    await dialog.getByRole("button", { name: "Create Project" }).click();
    await page.waitForURL(/\/project\/[^/]+\/chat$/);
    await toast("Project created").filter({ hasText: "Your new project has been created successfully." }).waitFor();
    expect(await page.getByTestId("breadcrumb-project").textContent()).toBe("First Project"); // trimmed
  }, 45_000);

  test("cards: one-line name, two-line description, sandbox id when present, relative time; 1, 2 or 3 columns", async () => {
    await seed(LONG_NAME, LONG_DESCRIPTION);
    await seed("No Description");
    const sandboxed = await seed("Sandboxed", "Has a sandbox");
    // A sandbox comes from the agent, which these tests do not run: add one to the list as the API would send it.
    await page.route("**/api/projects", async (route) => {
      if (route.request().method() !== "GET") return route.fallback();
      const response = await route.fetch();
      const list = (await response.json()) as Array<{ id: string; sandboxId: string | null }>;
      for (const p of list) if (p.id === sandboxed.id) p.sandboxId = "sbx-4f9c2a7e1b3d";
      await route.fulfill({ response, json: list });
    });
    await openProjects();
    await card("Sandboxed").waitFor();
    expect(await page.getByTestId("project-card").count()).toBe(4);

    const long = card(LONG_NAME);
    const title = long.getByRole("heading");
    const titleBox = await title.evaluate((el) => ({
      lines: Math.round(el.clientHeight / parseFloat(getComputedStyle(el).lineHeight)),
      clipped: el.scrollWidth > el.clientWidth,
    }));
    expect(titleBox).toEqual({ lines: 1, clipped: true });
    const description = long.locator("p");
    const descriptionBox = await description.evaluate((el) => ({
      lines: Math.round(el.clientHeight / parseFloat(getComputedStyle(el).lineHeight)),
      clipped: el.scrollHeight > el.clientHeight,
    }));
    expect(descriptionBox).toEqual({ lines: 2, clipped: true });
    expect(await card("Sandboxed").getByTestId("project-sandbox").textContent()).toBe("sbx-4f9c2a7e1b3d");
    expect(await card("No Description").getByTestId("project-sandbox").count()).toBe(0);
    expect(await card("Sandboxed").locator("time").textContent()).toMatch(/^Updated (just now|now|\d+ seconds? ago)$/);
    expect(await unnamedControls(page)).toEqual([]);

    await expectColumns(3);
    await shot("grid-1440");
    await page.setViewportSize({ width: 768, height: 1024 });
    await expectColumns(1); // beside the expanded sidebar
    await page.keyboard.press("Control+b");
    await expectColumns(2);
    await shot("grid-768-collapsed");
    await page.keyboard.press("Control+b");
    await expectColumns(1);
    await page.setViewportSize({ width: 375, height: 812 });
    await expectColumns(1);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBe(0);
    await shot("grid-375", true);
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.unroute("**/api/projects");

    // Clicking a card opens the project's chat.
    await card("No Description").getByRole("link").click();
    await page.waitForURL(/\/project\/[^/]+\/chat$/);
    await page.getByTestId("breadcrumb-project").filter({ hasText: "No Description" }).waitFor();
  }, 60_000);

  test("delete: the icon shows on hover and on keyboard focus; the browser confirmation can be dismissed or accepted", async () => {
    await openProjects();
    const target = card("No Description");
    const remove = target.getByRole("button", { name: "Delete project No Description" });
    await remove.waitFor();
    const opacity = () => remove.evaluate((el) => getComputedStyle(el).opacity);
    await page.mouse.move(0, 0);
    await page.waitForFunction((el) => getComputedStyle(el!).opacity === "0", await remove.elementHandle());
    await target.hover();
    await page.waitForFunction((el) => getComputedStyle(el!).opacity === "1", await remove.elementHandle());
    await shot("delete-hover");
    await page.mouse.move(0, 0);
    await page.waitForFunction((el) => getComputedStyle(el!).opacity === "0", await remove.elementHandle());
    // Keyboard: Tab from the card's link reaches its delete button, which shows.
    await target.getByRole("link").focus();
    await page.keyboard.press("Tab");
    expect(await remove.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.waitForFunction((el) => getComputedStyle(el!).opacity === "1", await remove.elementHandle());
    expect(await opacity()).toBe("1");

    // Dismissed: nothing happens.
    const dismissed = page.waitForEvent("dialog").then(async (d) => {
      expect(d.type()).toBe("confirm");
      expect(d.message()).toBe(CONFIRMATION);
      await d.dismiss();
    });
    await page.keyboard.press("Enter");
    await dismissed;
    await page.waitForTimeout(300);
    expect(await target.count()).toBe(1);

    // The server refuses: the failure toast, and the card stays.
    await page.route("**/api/projects/*", (route) =>
      route.request().method() === "DELETE" ? route.fulfill({ status: 500, json: { error: "Database unavailable", code: "internal" } }) : route.fallback(),
    );
    page.once("dialog", (d) => void d.accept());
    await remove.click();
    await toast("Failed to delete project").waitFor();
    expect(await toast("Failed to delete project").getAttribute("data-variant")).toBe("destructive");
    expect(await target.count()).toBe(1);
    await page.unroute("**/api/projects/*");

    // Accepted: deleted, with the success toast, and gone after a reload too.
    page.once("dialog", (d) => void d.accept());
    await remove.click();
    await toast("Project deleted").filter({ hasText: "The project has been removed." }).waitFor();
    expect(await page.getByTestId("toast").count()).toBe(1);
    await target.waitFor({ state: "detached" });
    await shot("deleted");
    await openProjects();
    await card("Sandboxed").waitFor();
    expect(await target.count()).toBe(0);
  }, 45_000);
});

describe("Import from ZIP", () => {
  /** Picks `zip` through the dialog's "Import from ZIP" button and the browser's file chooser. */
  async function importZip(dialog: Locator, fileName: string, zip: JSZip): Promise<void> {
    const chooser = page.waitForEvent("filechooser");
    await dialog.getByRole("button", { name: "Import from ZIP" }).click();
    const buffer = Buffer.from(await zip.generateAsync({ type: "uint8array", compression: "DEFLATE" }));
    await (await chooser).setFiles({ name: fileName, mimeType: "application/zip", buffer });
  }

  test("a refused zip shows the server's reason in the dialog and keeps what was typed; a good one opens the new project with its files", async () => {
    const before = await callApi<unknown[]>(stack.app.url, token, "GET", "/api/projects");
    await openProjects();
    await page.getByRole("button", { name: "New Project" }).click();
    const dialog = page.getByRole("dialog", { name: "Create New Project" });
    await dialog.getByLabel("Project Name").fill("Zipped App");
    await dialog.getByLabel("Description (optional)").fill("Brought in from a zip");

    const evil = new JSZip();
    evil.file("../evil.txt", "escape");
    await importZip(dialog, "evil.zip", evil);
    const reason = dialog.getByTestId("import-zip-error");
    await reason.waitFor();
    expect(await reason.getAttribute("role")).toBe("alert");
    expect(await reason.textContent()).toBe("../evil.txt contains '..'; every entry must stay inside the project.");
    expect(await dialog.getByLabel("Project Name").inputValue()).toBe("Zipped App");
    expect(await dialog.getByLabel("Description (optional)").inputValue()).toBe("Brought in from a zip");
    expect(page.url()).toBe(url("/projects"));
    await transitionsDone(page);
    await shot("import-refused");

    const logo = Uint8Array.from({ length: 300 }, (_, i) => (i * 37) % 256); // not UTF-8: stored as binary
    const good = new JSZip();
    good.file("zipped-app/README.md", "# Zipped\n\nFrom the e2e test.\n");
    good.file("zipped-app/public/logo.png", logo);
    await importZip(dialog, "zipped-app.zip", good);
    await page.waitForURL(/\/project\/[^/]+\/chat$/);
    await toast("Project imported").filter({ hasText: "Zipped App was created from zipped-app.zip." }).waitFor();
    await page.getByTestId("breadcrumb-project").filter({ hasText: "Zipped App" }).waitFor();
    await dialog.waitFor({ state: "detached" });

    const id = decodeURIComponent(page.url().split("/project/")[1]!.split("/")[0]!);
    await page.goto(url(`/project/${encodeURIComponent(id)}/files`));
    const row = (path: string) => page.locator(`[data-testid="file-row"][data-path="${path}"]`);
    await row("README.md").waitFor();
    expect(await row("public/logo.png").getByTestId("file-size").textContent()).toBe("300 B");
    expect(await page.getByTestId("file-count").textContent()).toBe("2 files");
    const stored = await callApi<{ files: Record<string, string>; binary?: string[] }>(stack.app.url, token, "GET", `/api/files/${id}/download`);
    expect(stored.binary).toEqual(["public/logo.png"]);
    expect(new Uint8Array(Buffer.from(stored.files["public/logo.png"]!, "base64"))).toEqual(logo);

    // The list shows the new project (one more than before the refused zip, which created nothing).
    await page.getByRole("link", { name: "Projects" }).first().click();
    await card("Zipped App").waitFor();
    expect(await page.getByTestId("project-card").count()).toBe(before.length + 1);
  }, 60_000);
});

describe("toasts", () => {
  /** Raises the "Name required" toast from the New Project dialog, then closes the dialog. */
  async function raiseToast(): Promise<void> {
    await openProjects();
    await page.getByRole("button", { name: "New Project" }).click();
    const dialog = page.getByRole("dialog", { name: "Create New Project" });
    await dialog.getByRole("button", { name: "Create Project" }).click();
    await toast("Name required").waitFor();
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });
  }

  async function swipe(distance: number): Promise<void> {
    const box = (await page.getByTestId("toast").boundingBox())!;
    const y = box.y + box.height / 2;
    await page.mouse.move(box.x + 40, y);
    await page.mouse.down();
    for (let dx = 10; dx <= distance; dx += 10) await page.mouse.move(box.x + 40 + dx, y);
    await page.mouse.up();
  }

  test("a swipe right of 50 px or more dismisses a toast; a shorter one springs back", async () => {
    await raiseToast();
    await swipe(30);
    await page.waitForTimeout(300);
    expect(await page.getByTestId("toast").count()).toBe(1);
    expect(await page.getByTestId("toast").evaluate((el) => getComputedStyle(el).transform)).toBe("none");
    await swipe(60);
    await page.getByTestId("toast").waitFor({ state: "detached" });
  }, 30_000);

  test("F8 moves focus to the notifications region; Escape there closes the toast", async () => {
    await raiseToast();
    await page.keyboard.press("F8");
    const region = await page.evaluate(() => document.activeElement?.closest("[role=region]")?.getAttribute("aria-label"));
    expect(region).toBe("Notifications (F8)");
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.getAttribute("data-testid"))).toBe("toast");
    await shot("toast-focused");
    await page.keyboard.press("Escape");
    await page.getByTestId("toast").waitFor({ state: "detached" });
  }, 30_000);

  test("a toast closes by itself after 5000 ms, and waits while the pointer is on it", async () => {
    await raiseToast();
    await page.mouse.move(0, 0);
    const shown = Date.now();
    await page.waitForTimeout(4_000);
    expect(await page.getByTestId("toast").count()).toBe(1);
    await page.getByTestId("toast").waitFor({ state: "detached", timeout: 3_000 });
    const elapsed = Date.now() - shown;
    expect(elapsed).toBeGreaterThanOrEqual(4_500);
    expect(elapsed).toBeLessThan(7_000);

    await raiseToast();
    await page.getByTestId("toast").hover();
    await page.waitForTimeout(6_000);
    expect(await page.getByTestId("toast").count()).toBe(1); // paused
    await page.mouse.move(0, 0);
    await page.getByTestId("toast").waitFor({ state: "detached", timeout: 8_000 });
  }, 45_000);
});
