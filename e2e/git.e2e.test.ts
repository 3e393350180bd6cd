/**
 * The Git panel end to end: real Chromium, the real app, and a real git smart-HTTP server (git http-backend
 * behind basic auth on 127.0.0.1, so the app runs with GIT_ALLOW_HTTP and GIT_ALLOW_PRIVATE_HOSTS). From the
 * Files screen: a wrong token shows the server's reason; connect; push (the remote has the file); a commit
 * made with the git CLI is pulled (the file appears in Files, the panel says up to date). Screenshots go to
 * e2e/artifacts/git-*.png.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import type { Project } from "@shared/schemas/project";
import type { Page } from "playwright-core";
import { type GitServer, startGitServer } from "../api/src/test/git-server";
import { runCleanups } from "./support/api";
import type { AppServer } from "./support/app-server";
import { type ModelApp, startModelApp } from "./support/model-app";
import { ARTIFACTS, STEP_MS } from "./support/stack";

const USER = "e2e";
const TOKEN = `tok-${crypto.randomUUID().slice(0, 12)}`;

let m: ModelApp;
let app: AppServer;
let page: Page;
let server: GitServer;
let projectId: string;
const cleanups: Array<() => unknown> = [];
const shot = (name: string) => page.screenshot({ path: join(ARTIFACTS, `git-${name}.png`) });

beforeAll(async () => {
  server = await startGitServer({ username: USER, password: TOKEN });
  cleanups.push(() => server.close());
  m = await startModelApp({
    name: "git",
    cleanups,
    env: { OPENAI_MODEL: "fake-model", GIT_ALLOW_HTTP: "true", GIT_ALLOW_PRIVATE_HOSTS: "true" },
    // A fresh data folder's embedded database starts slowly on a busy machine.
    startTimeoutMs: 150_000,
  });
  ({ app, page } = m);
  projectId = (await m.api<Project>("POST", "/api/projects", { name: "Git panel" })).id;
  await m.api("POST", `/api/files/${projectId}`, { path: "index.html", content: "<h1>From the app</h1>\n" });
}, 300_000);

afterAll(async () => {
  await runCleanups(cleanups);
}, 30_000);

describe("the Git panel", () => {
  test("connect (a wrong token shows the server's reason), push, then pull a commit made with the git CLI", async () => {
    try {
      const url = server.createRepo("panel");
      await page.goto(`${app.url}/project/${projectId}/files`);
      await page.getByTestId("git-button").click();
      await page.getByLabel("Repository URL").fill(url);
      await page.getByLabel("Username (optional)").fill(USER);
      await page.getByLabel(/Access token/).fill("wrong-token");
      await page.getByTestId("git-connect").click();
      await page.getByTestId("git-error").filter({ hasText: "The remote refused the credentials (HTTP 401)" }).waitFor({ timeout: STEP_MS });

      await page.getByLabel(/Access token/).fill(TOKEN);
      await page.getByTestId("git-connect").click();
      await page.getByTestId("git-status").waitFor({ timeout: STEP_MS });
      expect(await page.getByTestId("git-ahead").textContent()).toBe("1 ahead");
      await shot("connected");

      await page.getByLabel("Commit message (optional)").fill("First push from the panel");
      await page.getByTestId("git-push").click();
      await page.getByTestId("git-state").filter({ hasText: "Up to date" }).waitFor({ timeout: STEP_MS });
      expect(server.show("panel", "index.html")).toBe("<h1>From the app</h1>");
      await page.getByTestId("git-commits").filter({ hasText: "First push from the panel" }).waitFor({ timeout: STEP_MS });

      server.commit("panel", { "docs/notes.md": "# Notes from elsewhere\n" }, "Notes made with the git CLI");
      await page.getByTestId("git-pull").click();
      await page.getByTestId("toast").filter({ hasText: "Pulled" }).first().waitFor({ timeout: STEP_MS });
      await page.getByTestId("git-commits").filter({ hasText: "Notes made with the git CLI" }).waitFor({ timeout: STEP_MS });
      await page.getByTestId("git-state").filter({ hasText: "Up to date" }).waitFor({ timeout: STEP_MS });
      await shot("pulled");
      await page.keyboard.press("Escape");
      await page.locator('[data-testid="file-row"][data-path="docs/notes.md"]').waitFor({ timeout: STEP_MS });
      expect(page.url()).not.toContain(TOKEN);
    } catch (error) {
      await shot("failure").catch(() => {});
      throw error;
    }
  }, 180_000);
});
