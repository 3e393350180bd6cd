/**
 * An app that keeps its data, end to end: real Chromium, the real app on its embedded defaults (each project's
 * database an embedded PGlite), a real local sandbox, and the scripted model. The model builds a todo app from
 * the fullstack template, whose server stores items through DATABASE_URL. A todo added in the preview is still
 * there after the sandbox is recreated and the page reloaded; the Database view shows its row; "Undo this run"
 * puts the data back as it was before the run, so the table is gone. Screenshots go to e2e/artifacts/app-data-*.png.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import type { DatabaseInfo } from "@shared/schemas/database";
import type { Project } from "@shared/schemas/project";
import type { FrameLocator, Page } from "playwright-core";
import { checkLocalSandboxSupport } from "../api/src/sandbox/local/check";
import { type FakeModelServer, turn } from "../api/src/test/fake-model-server";
import { runCleanups } from "./support/api";
import type { AppServer } from "./support/app-server";
import { type ModelApp, startModelApp } from "./support/model-app";
import { ARTIFACTS } from "./support/stack";
import { until } from "./support/until";

const support = await checkLocalSandboxSupport();
const SKIP = support.ok ? null : `skipped: the local sandbox cannot run on this machine (${support.missing.join("; ")})`;
const TODO = `Buy milk ${crypto.randomUUID().slice(0, 8)}`;

let m: ModelApp;
let model: FakeModelServer;
let app: AppServer;
let page: Page;
let projectId: string;
const cleanups: Array<() => unknown> = [];
const shot = (name: string) => page.screenshot({ path: join(ARTIFACTS, `app-data-${name}.png`) });
const frame = (): FrameLocator => page.frameLocator("iframe[title^='Preview of']");

beforeAll(async () => {
  if (SKIP) return;
  // No repair rounds: the scripted model has no answer queued for one.
  m = await startModelApp({ name: "app-data", cleanups, env: { OPENAI_MODEL: "fake-model", AGENT_REPAIR_ROUNDS: "0" } });
  ({ model, app, page } = m);
  projectId = (await m.api<Project>("POST", "/api/projects", { name: "Todos" })).id;
}, 300_000);

afterAll(async () => {
  await runCleanups(cleanups);
}, 30_000);

describe("a todo app that remembers", () => {
  const run = SKIP ? test.skip : test;
  run(
    "keeps a todo across a recreated sandbox, shows it in the Database view, and 'Undo this run' takes the table away",
    async () => {
      try {
        model.reset();
        model.enqueue(turn.toolCalls([{ name: "create_boilerplate", arguments: { template: "fullstack" } }]), turn.text("Your todo app is ready."));
        await page.goto(`${app.url}/project/${projectId}/chat`);
        await page.getByTestId("chat-input").fill("A todo app that remembers my todos");
        await page.getByTestId("chat-input").press("Enter");
        await page.getByTestId("send-button").waitFor({ timeout: 240_000 });

        // The app's server ran its migration on the project's database and answers from it.
        await page.goto(`${app.url}/project/${projectId}/preview`);
        await frame().getByRole("heading", { name: "Items" }).waitFor({ timeout: 90_000 });
        await frame().getByLabel("New item").fill(TODO);
        await frame().getByRole("button", { name: "Add" }).click();
        await frame().getByText(TODO).waitFor({ timeout: 20_000 });
        await shot("added");

        // A new sandbox, nothing of the old one kept: the todo lives in the database, not in the sandbox.
        const before = (await m.api<Project>("GET", `/api/projects/${projectId}`)).sandboxId;
        await m.api("POST", `/api/sandbox/${projectId}/recreate`);
        expect((await m.api<Project>("GET", `/api/projects/${projectId}`)).sandboxId).not.toBe(before);
        await page.reload();
        await frame().getByText(TODO).waitFor({ timeout: 120_000 });
        await shot("after-recreate");

        // The Database view lists the table and shows the row.
        await page.goto(`${app.url}/project/${projectId}/database`);
        await page.getByRole("button", { name: /^items/ }).click();
        await page.getByTestId("table-rows").getByText(TODO).waitFor({ timeout: 30_000 });
        await shot("database-view");

        // Undo the run: the files and the data go back to before it, when there was no table.
        await page.goto(`${app.url}/project/${projectId}/chat`);
        await page.locator('[data-testid="message"][data-role="assistant"]').last().getByTestId("undo-run").click();
        const dialog = page.getByRole("dialog", { name: "Undo this run?" });
        await dialog.getByTestId("confirm-restore").click();
        await page.getByText("The database is back as it was too.", { exact: false }).waitFor({ timeout: 60_000 });
        const tables = await until(
          "the tables to be gone",
          async () => (await m.api<DatabaseInfo>("GET", `/api/projects/${projectId}/database`)).tables.map((t) => t.name),
          (names) => names.length === 0,
          30_000,
        );
        expect(tables).toEqual([]);
        await page.goto(`${app.url}/project/${projectId}/database`);
        await page.getByText("No tables yet.", { exact: false }).waitFor();
        await shot("undone");

        // History marks the versions whose data changed.
        const versions = await m.api<{ label: string; data: string; dataChanged: boolean }[]>("GET", `/api/projects/${projectId}/versions`);
        expect(versions.find((v) => v.label.startsWith("Before restoring"))).toMatchObject({ data: "included" });
        expect(versions[0]).toMatchObject({ data: "none", dataChanged: true });
      } catch (err) {
        await shot("failure").catch(() => {});
        console.error(`--- app output ---\n${app.output().slice(-4000)}`);
        throw err;
      }
    },
    420_000,
  );
});
