/**
 * Publish end to end: real Chromium, the real app serving web/dist, the real Auth emulator and a real local
 * sandbox. The react template is applied, Publish in the Preview view's header opens the dialog, the build
 * runs with its log streaming in, the live URL (`<slug>.sites.localhost:<port>`) appears, and opening it
 * shows the built app rendering. Screenshots go to e2e/artifacts/.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import type { Project } from "@shared/schemas/project";
import type { BrowserContext, Page } from "playwright-core";
import { checkLocalSandboxSupport } from "../api/src/sandbox/local/check";
import { callApi, runCleanups } from "./support/api";
import type { AppServer } from "./support/app-server";
import { appDataDir } from "./support/data-dir";
import { startOwnStack } from "./support/own-stack";
import { templateCacheFilled } from "./support/template-cache";
import { bearerToken, signInWithGoogle } from "./support/sign-in";

const PROJECT_ID = "demo-e2e-publish";
const ARTIFACTS = join(import.meta.dir, "artifacts");
const support = await checkLocalSandboxSupport();
const SKIP = support.ok ? null : `skipped: the local sandbox cannot run on this machine (${support.missing.join("; ")})`;

const cleanups: Array<() => Promise<unknown> | unknown> = [];
let app: AppServer;
let context: BrowserContext;
let page: Page;
let token: string;
let projectId: string;

const api = <T>(method: string, path: string, body?: unknown) => callApi<T>(app.url, token, method, path, body);

beforeAll(async () => {
  if (SKIP) return;
  const dataDir = appDataDir("e2e-publish-", cleanups);
  ({ app, context, page } = await startOwnStack({
    projectId: PROJECT_ID,
    dataDir,
    cleanups,
    env: { SANDBOX_WARM_TEMPLATES: "react" },
    viewport: { width: 1440, height: 900 },
  }));
  page.setDefaultTimeout(20_000);

  const deadline = Date.now() + 150_000;
  while (!templateCacheFilled("react") && Date.now() < deadline) await Bun.sleep(200);

  await signInWithGoogle(page, app.url);
  token = await bearerToken(page, app.url);
  projectId = (await api<Project>("POST", "/api/projects", { name: "Publish E2E" })).id;
  await api("POST", `/api/sandbox/${projectId}/template`, { template: "react" });
}, 300_000);

afterAll(() => runCleanups(cleanups), 30_000);

describe("publish from the Preview view", () => {
  const run = SKIP ? test.skip : test;
  run(
    "Publish builds the app, shows the live URL, and the URL renders the app; a cleared name asks for one; Unpublish is confirmed",
    async () => {
      try {
        await page.goto(`${app.url}/project/${projectId}/preview`);
        await page.getByRole("heading", { name: "Preview", exact: true }).waitFor();
        await page.getByRole("toolbar", { name: "Preview actions" }).getByTestId("publish-button").click();
        const dialog = page.getByTestId("publish-dialog");
        await dialog.waitFor();
        const slug = `e2e-${crypto.randomUUID().slice(0, 8)}`;
        await page.getByLabel("Site name").fill(slug);
        await page.getByTestId("publish-start").click();
        await page.getByTestId("publish-log").waitFor();
        const live = page.getByTestId("publish-live-url");
        await live.waitFor({ timeout: 180_000 });
        await page.screenshot({ path: join(ARTIFACTS, "publish-dialog-live.png") });
        const url = await live.locator("a").first().getAttribute("href");
        expect(url).toBe(`http://${slug}.sites.localhost:${new URL(app.url).port}`);
        expect(await page.getByTestId("publish-history").getByText("Live").count()).toBe(1);

        const site = await context.newPage();
        await site.goto(url!);
        await site.getByText("Hello from React").waitFor({ timeout: 20_000 });
        await site.getByRole("button", { name: "Clicked 0 times" }).click();
        await site.getByRole("button", { name: "Clicked 1 times" }).waitFor();
        await site.screenshot({ path: join(ARTIFACTS, "publish-site.png") });
        // A deep link is the same app (client-side routes).
        await site.goto(`${url}/some/route`);
        await site.getByText("Hello from React").waitFor();

        await page.goto(`${app.url}/projects`);
        await page.getByTestId("project-live-badge").first().waitFor();

        // A cleared site name stays empty and asks for one; Unpublish asks before taking the site down.
        await page.goto(`${app.url}/project/${projectId}/preview`);
        await page.getByRole("toolbar", { name: "Preview actions" }).getByTestId("publish-button").click();
        await page.getByTestId("publish-live-url").waitFor();
        const name = page.getByLabel("Site name");
        expect(await name.inputValue()).toBe(slug);
        await name.fill("");
        await page.getByTestId("publish-slug-problem").getByText("Choose a site name.").waitFor();
        await Bun.sleep(500); // a refill would come with the next render of the site state
        expect(await name.inputValue()).toBe("");
        expect(await page.getByTestId("publish-start").isDisabled()).toBe(true);
        await page.getByRole("button", { name: "Unpublish", exact: true }).click();
        const confirm = page.getByTestId("unpublish-confirm");
        await confirm.getByText("Take the site offline?").waitFor();
        await page.screenshot({ path: join(ARTIFACTS, "publish-unpublish-confirm.png") });
        await confirm.getByRole("button", { name: "Cancel" }).click();
        await confirm.waitFor({ state: "detached" });
        expect(await page.getByTestId("publish-live-url").isVisible()).toBe(true); // nothing was taken down
        await page.getByRole("button", { name: "Unpublish", exact: true }).click();
        await confirm.getByRole("button", { name: "Yes, unpublish" }).click();
        await page.getByTestId("publish-live-url").waitFor({ state: "detached" });
      } catch (error) {
        await page.screenshot({ path: join(ARTIFACTS, "publish-failure.png") }).catch(() => {});
        console.error(`--- app output ---\n${app.output().slice(-4000)}`);
        throw error;
      }
    },
    300_000,
  );
});

describe("device widths in the Preview toolbar", () => {
  const run = SKIP ? test.skip : test;
  run(
    "phone and tablet show the app at 390 and 768 px, and the choice is kept across a reload",
    async () => {
      await page.goto(`${app.url}/project/${projectId}/preview`);
      const widths = page.getByRole("toolbar", { name: "Preview actions" }).getByRole("group", { name: "Device width" });
      const frameWidth = async () => (await page.locator("[data-testid=preview-frame] iframe").boundingBox())?.width;
      const desktop = await frameWidth();
      expect(desktop).toBeGreaterThan(1000);
      await widths.getByRole("button", { name: "Phone width (390 px)" }).click();
      await page.waitForFunction(() => document.querySelector("[data-testid=preview-frame] iframe")?.getBoundingClientRect().width === 390);
      await page.screenshot({ path: join(ARTIFACTS, "preview-phone-width.png") });
      await widths.getByRole("button", { name: "Tablet width (768 px)" }).click();
      await page.waitForFunction(() => document.querySelector("[data-testid=preview-frame] iframe")?.getBoundingClientRect().width === 768);
      await page.reload();
      await page.waitForFunction(() => document.querySelector("[data-testid=preview-frame] iframe")?.getBoundingClientRect().width === 768);
      expect(await widths.getByRole("button", { name: "Tablet width (768 px)" }).getAttribute("aria-pressed")).toBe("true");
      await widths.getByRole("button", { name: "Desktop width" }).click();
      await page.waitForFunction((w) => document.querySelector("[data-testid=preview-frame] iframe")?.getBoundingClientRect().width === w, desktop);
    },
    120_000,
  );
});
