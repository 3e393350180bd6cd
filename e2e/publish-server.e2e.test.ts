/**
 * Publishing an app that has a server, end to end (issue 22): real Chromium, the real app serving web/dist on
 * its embedded defaults (each project database an embedded PGlite), the real Auth emulator and real local
 * sandboxes. No model: the fullstack todo template is applied and files are written through the API.
 * The app's development server makes the `items` table in development, where the test adds a row of its own;
 * the Publish dialog publishes it as a server; a todo added on the site lands in production, not in
 * development. After SITE_IDLE_S (8 s here) the server is asleep, and the next page load wakes it and shows
 * the todo. A second publish with a new migration and a new heading applies the migration to the same data;
 * Roll back serves the first deployment's code over that data, started from the build kept with it. Screenshots go to e2e/artifacts/.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { DatabaseInfo, QueryResult } from "@shared/schemas/database";
import type { Project } from "@shared/schemas/project";
import type { Deployment } from "@shared/schemas/publish";
import type { BrowserContext, Page } from "playwright-core";
import { checkLocalSandboxSupport } from "../api/src/sandbox/local/check";
import { callApi, runCleanups } from "./support/api";
import type { AppServer } from "./support/app-server";
import { appDataDir } from "./support/data-dir";
import { startOwnStack } from "./support/own-stack";
import { bearerToken, signInWithGoogle } from "./support/sign-in";
import { templateCacheFilled } from "./support/template-cache";
import { until } from "./support/until";
import { REPO_ROOT } from "./support/web-build";

const PROJECT_ID = "demo-e2e-publish-server";
const ARTIFACTS = join(import.meta.dir, "artifacts");
// Long enough that a busy 2-core machine does not put the server to sleep between two steps of one page visit.
const IDLE_S = 8;
const support = await checkLocalSandboxSupport();
const SKIP = support.ok ? null : `skipped: the local sandbox cannot run on this machine (${support.missing.join("; ")})`;
const tag = crypto.randomUUID().slice(0, 8);
const TODO = `Buy milk ${tag}`;
const DEV_ONLY = `Only in development ${tag}`;

const cleanups: Array<() => Promise<unknown> | unknown> = [];
let app: AppServer;
let context: BrowserContext;
let page: Page;
let site: Page;
const siteRequests: string[] = [];
let token: string;
let projectId: string;

const api = <T>(method: string, path: string, body?: unknown) => callApi<T>(app.url, token, method, path, body);
const shot = (p: Page, name: string) => p.screenshot({ path: join(ARTIFACTS, `publish-server-${name}.png`) });
/** One column of a query's rows, in development or (read-only) production. */
const column = async (sql: string, env: "development" | "production") =>
  (await api<QueryResult>("POST", `/api/projects/${projectId}/database/query?env=${env}`, { sql })).rows.map((r) => r[0]);
const deployments = () => api<Deployment[]>("GET", `/api/projects/${projectId}/deployments`);
const logLines = async (deploymentId: string) =>
  (await api<{ lines: string[] }>("GET", `/api/projects/${projectId}/deployments/${deploymentId}/logs`)).lines.join("\n");
/** The newest deployment once the build started after `before` (a deployment id) has ended. */
const builtAfter = async (before: string): Promise<Deployment> =>
  (await until(
    "the new build to end",
    async () => (await deployments())[0],
    (d) => d !== undefined && d.id !== before && d.status !== "building",
    300_000,
  ))!;

beforeAll(async () => {
  if (SKIP) return;
  const dataDir = appDataDir("e2e-publish-server-", cleanups);
  ({ app, context, page } = await startOwnStack({
    projectId: PROJECT_ID,
    dataDir,
    cleanups,
    env: { SANDBOX_WARM_TEMPLATES: "fullstack", SITE_IDLE_S: String(IDLE_S), PUBLISH_START_TIMEOUT_S: "120" },
    viewport: { width: 1440, height: 900 },
  }));
  page.setDefaultTimeout(20_000);
  await until("the fullstack template's dependencies", () => templateCacheFilled("fullstack"), Boolean, 240_000);

  await signInWithGoogle(page, app.url);
  token = await bearerToken(page, app.url);
  projectId = (await api<Project>("POST", "/api/projects", { name: "Todos" })).id;
  await api("POST", `/api/sandbox/${projectId}/template`, { template: "fullstack" });
}, 420_000);

afterAll(() => runCleanups(cleanups), 30_000);

describe("publishing the fullstack todo app", () => {
  const run = SKIP ? test.skip : test;
  run(
    "production data apart from development, asleep after SITE_IDLE_S and woken by a page load, a second migration, and a rollback over the same data",
    async () => {
      try {
        // Development: the app's dev server ran 001_init.sql there; a row of the test's own stays there.
        await until(
          "the dev server to make the items table in development",
          async () => (await api<DatabaseInfo>("GET", `/api/projects/${projectId}/database`)).tables.map((t) => t.name),
          (names) => names.includes("items"),
          240_000,
        );
        await api("POST", `/api/projects/${projectId}/database/query?env=development`, { sql: `insert into items (title) values ('${DEV_ONLY}')` });

        // Publish from the dialog: built and started as a server, production made and migrated.
        await page.goto(`${app.url}/project/${projectId}/chat`);
        await page.getByTestId("chat-header").getByTestId("publish-button").click();
        await page.getByTestId("publish-dialog").waitFor();
        const slug = `todos-${tag}`;
        await page.getByLabel("Site name").fill(slug);
        await page.getByTestId("publish-start").click();
        const live = page.getByTestId("publish-live-url");
        await live.waitFor({ timeout: 300_000 });
        const url = await live.locator("a").first().getAttribute("href");
        expect(url).toBe(`http://${slug}.sites.localhost:${new URL(app.url).port}`);
        const [first] = await deployments();
        expect(first!.status).toBe("live");
        expect(first!.buildLog).toContain("publishing as a server");
        expect(first!.buildLog).toContain("Scanned");
        await shot(page, "dialog-live");

        // On the site: production starts empty (the development row is not there); a todo added is stored there.
        site = await context.newPage();
        site.setDefaultTimeout(20_000);
        // What the site page asked and got, printed when the test fails.
        site.on("response", (r) => siteRequests.push(`${r.request().method()} ${r.url()} → ${r.status()}`));
        site.on("requestfailed", (r) => siteRequests.push(`${r.method()} ${r.url()} failed: ${r.failure()?.errorText}`));
        await site.goto(url!);
        await site.getByRole("heading", { name: "Items" }).waitFor({ timeout: 60_000 });
        expect(await site.getByText(DEV_ONLY).count()).toBe(0);
        await site.getByLabel("New item").fill(TODO);
        await site.getByRole("button", { name: "Add" }).click();
        await site.getByText(TODO).waitFor();
        await shot(site, "todo-added");
        expect(await column("select title from items order by id", "production")).toEqual([TODO]);
        expect(await column("select title from items order by id", "development")).toEqual([DEV_ONLY]);
        // Production is read-only here: the Database view's SQL box cannot write it.
        const write = await fetch(`${app.url}/api/projects/${projectId}/database/query?env=production`, {
          method: "POST",
          headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
          body: JSON.stringify({ sql: "delete from items" }),
        });
        expect(write.status).toBe(400);

        // No request for SITE_IDLE_S: asleep (its log says so); the next page load wakes it and shows the todo.
        await until(
          "the server to fall asleep",
          () => logLines(first!.id),
          (log) => log.includes(`asleep: no request for ${IDLE_S} s`),
          60_000,
        );
        const waking = performance.now();
        await site.reload();
        await site.getByText(TODO).waitFor({ timeout: 120_000 });
        console.log(`(a sleeping server answered the page load in ${Math.round(performance.now() - waking)} ms)`);
        expect(await logLines(first!.id)).toContain("waking up for a request");
        await shot(site, "woken");

        // A second publish with a new migration and a new heading: the migration runs on production's data.
        const appTsx = readFileSync(join(REPO_ROOT, "api/templates/fullstack/files/src/App.tsx"), "utf8");
        expect(appTsx).toContain("<h1>Items</h1>");
        await api("POST", `/api/files/${projectId}`, { path: "src/App.tsx", content: appTsx.replace("<h1>Items</h1>", "<h1>Todo list</h1>") });
        await api("POST", `/api/files/${projectId}`, {
          path: "db/migrations/002_priority.sql",
          content: "ALTER TABLE items ADD COLUMN priority integer NOT NULL DEFAULT 3;\n",
        });
        await page.getByTestId("publish-start").click();
        const second = await builtAfter(first!.id);
        expect(second.status).toBe("live");
        expect(second.buildLog).toContain("002_priority.sql");
        expect(await column("select name from _migrations order by name", "production")).toEqual(["001_init.sql", "002_priority.sql"]);
        expect(await column("select priority from items", "production")).toEqual([3]);
        await site.reload();
        await site.getByRole("heading", { name: "Todo list" }).waitFor({ timeout: 120_000 });
        await site.getByText(TODO).waitFor();
        await shot(site, "second-publish");

        // Roll back: the first deployment's code (its heading) over the same data, migration kept.
        const history = page.getByTestId("publish-history");
        await history.getByRole("button", { name: "Roll back" }).click();
        await until(
          "the first deployment to be live again",
          async () => (await deployments()).find((d) => d.id === first!.id)?.status,
          (s) => s === "live",
          30_000,
        );
        // The row reads live a moment before every instance routes to it (the Roll back request is still
        // answering): a page loaded in that moment can take its HTML from one deployment and its script from
        // the other, as on any host that switches deployments. A later load must show the first one's page.
        await until(
          "the site to show the first deployment's page",
          async () => {
            await site.reload();
            return site
              .getByRole("heading", { name: "Items" })
              .waitFor({ timeout: 30_000 })
              .then(() => true)
              .catch(() => false);
          },
          (shown) => shown,
          120_000,
        );
        await site.getByText(TODO).waitFor();
        expect(await column("select name from _migrations order by name", "production")).toEqual(["001_init.sql", "002_priority.sql"]);
        // Its server had been stopped when the second went live: started again from the build kept with it.
        const rolledBack = await logLines(first!.id);
        expect(rolledBack).toContain("Starting from the build kept with this deployment");
        expect(rolledBack).not.toContain("$ npm run build");
        await shot(site, "rolled-back");
        await shot(page, "dialog-rolled-back");
      } catch (error) {
        await shot(page, "failure").catch(() => {});
        if (site) await shot(site, "failure-site").catch(() => {});
        console.error(`--- app output ---\n${app.output().slice(-6000)}`);
        console.error(`--- the site page's requests ---\n${siteRequests.slice(-40).join("\n")}`);
        for (const d of await deployments().catch(() => [])) {
          console.error(`--- deployment ${d.id} (${d.status}) logs ---\n${(await logLines(d.id).catch((e) => String(e))).slice(-3000)}`);
        }
        throw error;
      }
    },
    900_000,
  );
});
