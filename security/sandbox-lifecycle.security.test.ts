/**
 * Attacks on a sandbox's life, replayed against the running app (a real `bun api/src/index.ts` with local
 * sandboxes) by signed-in users:
 * - "deleting a project does not stop its sandbox; its public preview keeps serving": the preview answers
 *   404 the moment the delete answers, and the sandbox is gone;
 * - "three concurrent recreates leave two orphan sandboxes running": one sandbox is left, and all three
 *   answers name it;
 * - "hitting the process limit kills the sandbox but the shell answers error: null": the answer names the limit;
 * - with two instances on one PostgreSQL: a project deleted through one instance stops previewing on the
 *   other at once and its sandbox there is stopped (the bus), and recreates sent to both collapse into one.
 * (Preview requests not extending a sandbox's life, and its maximum lifetime, are replayed in
 * local-sandbox.security.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import fs from "node:fs";
import path from "node:path";
import { emulatorToken } from "../api/src/test/emulator-tokens";
import { enterPreview } from "../api/src/test/preview-access";
import { PROCESS_PROJECT_ID, scratchDatabase, startAppProcess, type AppProcess } from "../api/src/test/app-process";
import { localSuiteGate } from "../api/src/test/local-sandbox-support";

const ENV = { SANDBOX_WARM_TEMPLATES: "none", LOG_LEVEL: "info" };
// Sleeps long enough to outlast bash's own fork retries (1+2+4+8 s), however slowly a busy machine forks:
// with short ones, the first die before the cap is reached and the limit is never hit.
const FORK_BOMB = "for i in $(seq 700); do sleep 30 & done; echo done";

function userOn(name: string) {
  const uid = `${name}-${crypto.randomUUID()}`;
  const token = emulatorToken(PROCESS_PROJECT_ID, { uid, email: `${name}@example.com`, name });
  return Object.assign(
    (app: AppProcess, method: string, route: string, body?: unknown) =>
      fetch(`${app.url}${route}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { "content-type": "application/json" } : {}) },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    { token },
  );
}

/** The preview through `app`'s proxy with the cookie its owner's browser got (`enterPreview`), on `app`. */
const previewCookies = new Map<string, string | null>();
const preview = (app: AppProcess, sandboxId: string, port = 5173) =>
  fetch(`${app.url}/`, { headers: { host: `${port}-${sandboxId}.app.localhost:${app.port}`, cookie: previewCookies.get(`${app.url} ${sandboxId}`) ?? "" } });

/** Whether the sandbox's folder is still on disk in `app`'s DATA_DIR (removed when it stops). */
const sandboxOnDisk = (app: AppProcess, sandboxId: string) => fs.existsSync(path.join(app.dataDir, "sandboxes", sandboxId));

/** Sandbox ids the app handed to `projectId` (its "sandbox started" log lines). */
const startedFor = (app: AppProcess, projectId: string) =>
  app.lines.filter((l) => l.includes('"sandbox started"') && l.includes(projectId)).map((l) => JSON.parse(l).sandboxId as string);

async function until(what: string, check: () => Promise<boolean> | boolean, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms: ${what}`);
    await Bun.sleep(100);
  }
}

/** A project whose sandbox serves an app on 5173, through `app`; returns its id and sandbox id. */
async function projectServing(as: ReturnType<typeof userOn>, app: AppProcess, name: string) {
  const project = (await (await as(app, "POST", "/api/projects", { name })).json()) as { id: string };
  const server = `node -e "require('http').createServer((q, s) => s.end('app of ${name}')).listen(5173, '0.0.0.0')" &`;
  expect((await as(app, "POST", `/api/sandbox/${project.id}/shell`, { command: server })).status).toBe(200);
  const { sandboxId } = (await (await as(app, "GET", `/api/projects/${project.id}`)).json()) as { sandboxId: string };
  previewCookies.set(`${app.url} ${sandboxId}`, await enterPreview(app.url, as, project.id));
  await until("the preview serves", async () => (await preview(app, sandboxId)).status === 200);
  return { projectId: project.id, sandboxId };
}

if (await localSuiteGate("sandbox lifecycle security")) {
  describe("sandbox lifecycle: one instance", () => {
    let app: AppProcess;
    beforeAll(async () => {
      app = await startAppProcess(ENV, { startMs: 90_000 });
    }, 120_000);
    afterAll(async () => {
      app?.kill("SIGTERM");
      await app?.exited;
    }, 30_000);

    test("a deleted project's preview answers 404 at once, and its sandbox is stopped", async () => {
      const mallory = userOn("mallory");
      const { projectId, sandboxId } = await projectServing(mallory, app, "doomed");
      expect(await (await preview(app, sandboxId)).text()).toBe("app of doomed");
      expect((await mallory(app, "DELETE", `/api/projects/${projectId}`)).status).toBe(200);
      const after = await preview(app, sandboxId);
      expect(after.status).toBe(404);
      expect(await after.text()).toContain("There is no such preview");
      expect(sandboxOnDisk(app, sandboxId)).toBe(false);
      // A port nothing ever listened on answers the same: the sandbox is gone, not just its server.
      expect((await preview(app, sandboxId, 3000)).status).toBe(404);
    }, 90_000);

    test("three parallel recreates leave one sandbox, and all three answers name it", async () => {
      const mallory = userOn("mallory");
      const project = (await (await mallory(app, "POST", "/api/projects", { name: "triple" })).json()) as { id: string };
      expect((await mallory(app, "POST", `/api/sandbox/${project.id}/shell`, { command: "true" })).status).toBe(200);
      const answers = await Promise.all([1, 2, 3].map(() => mallory(app, "POST", `/api/sandbox/${project.id}/recreate`)));
      expect(answers.map((r) => r.status)).toEqual([200, 200, 200]);
      const urls = new Set(await Promise.all(answers.map(async (r) => ((await r.json()) as { url: string }).url)));
      expect(urls.size).toBe(1);
      const started = startedFor(app, project.id);
      expect(started.length).toBe(2); // the first sandbox, and one recreate
      expect(started.filter((id) => sandboxOnDisk(app, id))).toEqual([started[1]!]);
      expect([...urls][0]).toContain(started[1]!);
    }, 120_000);

    test("hitting the process limit answers a readable error through the shell, not error: null", async () => {
      const mallory = userOn("mallory");
      const project = (await (await mallory(app, "POST", "/api/projects", { name: "forks" })).json()) as { id: string };
      const res = await mallory(app, "POST", `/api/sandbox/${project.id}/shell`, { command: FORK_BOMB });
      const body = (await res.json()) as { stdout: string; error: string | null };
      expect(res.status).toBe(200);
      expect(body.error).toMatch(/^The sandbox hit its process limit \(\d+ processes, \d+ for one command\)/);
      // The sandbox lives on for its owner.
      expect(await (await mallory(app, "POST", `/api/sandbox/${project.id}/shell`, { command: "echo alive" })).json()).toEqual({
        stdout: "alive\n",
        stderr: "",
        error: null,
      });
    }, 90_000);
  });

  const db = await scratchDatabase();
  describe.skipIf(!db)("sandbox lifecycle: two instances on one PostgreSQL", () => {
    let a: AppProcess;
    let b: AppProcess;
    beforeAll(async () => {
      [a, b] = await Promise.all([
        startAppProcess({ ...ENV, DATABASE_URL: db!.url }, { startMs: 90_000 }),
        startAppProcess({ ...ENV, DATABASE_URL: db!.url }, { startMs: 90_000 }),
      ]);
    }, 120_000);
    afterAll(async () => {
      for (const app of [a, b]) app?.kill("SIGTERM");
      await Promise.all([a?.exited, b?.exited]);
      await db!.drop();
    }, 30_000);

    test("a project deleted through the other instance stops previewing here at once, and its sandbox here stops", async () => {
      const mallory = userOn("mallory");
      const { projectId, sandboxId } = await projectServing(mallory, a, "doomed elsewhere");
      expect((await mallory(b, "DELETE", `/api/projects/${projectId}`)).status).toBe(200);
      expect((await preview(a, sandboxId)).status).toBe(404);
      await until("the sandbox on the first instance stops", () => !sandboxOnDisk(a, sandboxId), 10_000);
    }, 90_000);

    test("parallel recreates sent to both instances leave one sandbox between them", async () => {
      const mallory = userOn("mallory");
      const project = (await (await mallory(a, "POST", "/api/projects", { name: "split" })).json()) as { id: string };
      // Files to fill each new sandbox with, so a recreate lasts long enough for all four to overlap, and both
      // instances already warm (signed-in user known), so none of the four lags behind the others.
      for (let i = 0; i < 120; i += 20) {
        await Promise.all(
          Array.from({ length: 20 }, (_, j) => mallory(a, "POST", `/api/files/${project.id}`, { path: `src/f${i + j}.txt`, content: "x".repeat(1000) })),
        );
      }
      for (const app of [a, b]) expect((await mallory(app, "GET", `/api/projects/${project.id}`)).status).toBe(200);
      const answers = await Promise.all([a, b, a, b].map((app) => mallory(app, "POST", `/api/sandbox/${project.id}/recreate`)));
      expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200]);
      const bodies = (await Promise.all(answers.map((r) => r.json()))) as { url: string; filesSynced: number }[];
      expect(new Set(bodies.map((x) => x.url)).size).toBe(1);
      expect(bodies.map((x) => x.filesSynced)).toEqual([120, 120, 120, 120]);
      const started = [...startedFor(a, project.id), ...startedFor(b, project.id)];
      expect(started.length).toBe(1);
    }, 120_000);
  });
}
