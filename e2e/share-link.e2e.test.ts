/**
 * A preview share link in Chromium (issue 26): the owner makes one in the Preview screen's Share dialog, a
 * signed-out browser context opens it and sees the app running in the sandbox (and the preview host only), and
 * after the owner revokes it the same tab's next load, and the link itself, answer 404.
 * Screenshots: e2e/artifacts/share-link-*.png.
 */
import { afterAll, beforeAll, describe, expect } from "bun:test";
import { join } from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { checkLocalSandboxSupport } from "../api/src/sandbox/local/check";
import { runCleanups } from "./support/api";
import { newOfflineContext } from "./support/browser";
import { type ModelApp, startModelApp } from "./support/model-app";
import { startServerAndWait } from "./support/sandbox-preview";
import { ARTIFACTS } from "./support/stack";
import { stepsReporting } from "./support/step";

const PAGE_TEXT = "Shared with the world";
const support = await checkLocalSandboxSupport();
const SKIP = support.ok ? null : `skipped: the local sandbox cannot run here (${support.missing.join("; ")})`;

const cleanups: Array<() => unknown> = [];
let m: ModelApp;
let outsider: BrowserContext;
let visitor: Page;
let projectId: string;
let linkUrl: string;

const shot = (name: string) => m.page.screenshot({ path: join(ARTIFACTS, `share-link-${name}.png`) });
const step = stepsReporting({ shot, appOutput: () => m?.app.output() ?? "" });

beforeAll(async () => {
  if (SKIP) return;
  m = await startModelApp({ name: "share-link", cleanups });
  outsider = await newOfflineContext(m.stack.browser);
  cleanups.push(() => outsider.close());
  visitor = await outsider.newPage();
}, 240_000);

afterAll(() => runCleanups(cleanups), 30_000);

describe("share link", () => {
  step(
    "the owner makes a link in the Share dialog; a signed-out browser opens it and sees the running app",
    async () => {
      projectId = (await m.api<{ id: string }>("POST", "/api/projects", { name: "Share E2E" })).id;
      await m.api("POST", `/api/files/${projectId}`, { path: "index.html", content: `<h1>${PAGE_TEXT}</h1>` });
      const previewUrl = await startServerAndWait(m.api, m.app.url, projectId, PAGE_TEXT);

      await m.page.goto(`${m.app.url}/project/${projectId}/preview`);
      await m.page.getByRole("button", { name: "Share preview" }).click();
      await m.page.getByLabel("Expires after").selectOption({ label: "1 day" });
      await m.page.getByRole("button", { name: "Create link" }).click();
      const urlField = m.page.getByLabel("Share link URL");
      await urlField.waitFor();
      linkUrl = await urlField.inputValue();
      expect(linkUrl).toStartWith(`${m.app.url}/api/share/`);
      await m.page.getByTestId("share-link-row").first().waitFor();
      expect(await m.page.getByTestId("share-link-row").count()).toBe(1);
      await shot("dialog");

      const opened = await visitor.goto(linkUrl);
      await visitor.getByRole("heading", { name: PAGE_TEXT }).waitFor({ timeout: 30_000 });
      expect(opened?.status()).toBe(200);
      expect(new URL(visitor.url()).origin).toBe(new URL(previewUrl).origin);
      await visitor.screenshot({ path: join(ARTIFACTS, "share-link-visitor.png") });
      // The link opens the preview alone: the signed-out context gets nothing from the API.
      const apiAnswer = await visitor.request.get(`${m.app.url}/api/projects/${projectId}`);
      expect(apiAnswer.status()).toBe(401);
    },
    180_000,
    SKIP,
  );

  step(
    "after the owner revokes the link, the visitor's next load and the link itself answer 404",
    async () => {
      await m.page.getByRole("button", { name: /^Revoke the link/ }).click();
      await m.page.getByText("No links yet.").waitFor();
      const reloaded = await visitor.reload();
      expect(reloaded?.status()).toBe(404);
      expect(await visitor.getByText(PAGE_TEXT).count()).toBe(0);
      const again = await visitor.goto(linkUrl);
      expect(again?.status()).toBe(404);
      await visitor.screenshot({ path: join(ARTIFACTS, "share-link-revoked.png") });
    },
    60_000,
    SKIP,
  );
});
