/**
 * The problems service on the test database (PGlite, or PostgreSQL with TEST_DATABASE_URL): reports from a
 * preview and from the dev server's output, deduplicated and counted, capped at 100, made stale by a file
 * change and gone unless reported again, cleared, owner-checked, and announced on the bus; what open previews
 * say of their loads.
 */
import { projectAccess } from "../access";
import { grantedAccess } from "../../test/access";
import { afterAll, describe, expect, test } from "bun:test";
import { markProblemsStale } from "../../db/problems";
import { setProjectSandbox } from "../../db/project-sandbox";
import { serviceContext } from "../../test/service-context";
import { writeFileAtPath } from "../files";
import { createProject } from "../projects";
import {
  browserProblemsSince,
  clearProblems,
  ingestServerOutput,
  listProblems,
  openPreviewLoad,
  PREVIEW_OPEN_MS,
  recordCheckProblems,
  reloadStalePreviews,
  reportFromPreview,
  reportViteError,
  startProblemsWatch,
} from "./index";

const ctx = await serviceContext();
const SETTLE_MS = 300;
const stopWatch = startProblemsWatch(ctx, { settleMs: SETTLE_MS });
afterAll(stopWatch);

async function projectWithSandbox() {
  const owner = await ctx.newUser("alice");
  const project = await createProject(ctx, owner, { name: "App" });
  const sandboxId = crypto.randomUUID().replace(/-/g, "").slice(0, 20);
  await setProjectSandbox(ctx.sql, project.id, sandboxId, `http://5173-${sandboxId}.localhost`);
  return { owner, projectId: project.id, sandboxId };
}
const list = (p: { owner: string; projectId: string }) => listProblems(ctx, grantedAccess(p.owner, p.projectId), { settleMs: SETTLE_MS });
const boom = (message = "boom") => ({
  kind: "error" as const,
  message: `Uncaught Error: ${message}`,
  stack: `Error: ${message}\n    at App (http://5173-x.localhost:3000/src/App.tsx?t=1712:7:11)\n    at renderWithHooks (http://5173-x.localhost:3000/node_modules/.vite/deps/react-dom_client.js?v=9f:1:2)`,
  file: "http://5173-x.localhost:3000/node_modules/.vite/deps/react-dom_client.js?v=9f",
  line: 1,
});
const eventually = async <T>(read: () => Promise<T>, ok: (v: T) => boolean, ms = 5_000): Promise<T> => {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (ok(v) || Date.now() > deadline) return v;
    await Bun.sleep(25);
  }
};

describe("problems", () => {
  test("a browser error is listed once with its place in the project's code, and counted when it repeats", async () => {
    const p = await projectWithSandbox();
    expect(await reportFromPreview(ctx, p.sandboxId, [boom()])).toEqual({ reload: false });
    await Bun.sleep(2);
    // The same error after a reload (another ?t= stamp) is the same problem.
    await reportFromPreview(ctx, p.sandboxId, [{ ...boom(), stack: boom().stack.replace("t=1712", "t=1999") }]);
    const problems = await list(p);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ source: "browser", message: "Uncaught Error: boom", file: "src/App.tsx", line: 7, count: 2 });
    expect(Date.parse(problems[0]!.firstSeen)).toBeGreaterThan(Date.now() - 60_000);
    expect(problems[0]!.detail).toContain("at App");
    expect(ctx.published.some((e) => e.type === "problems.changed" && e.projectId === p.projectId && e.ownerId === p.owner)).toBe(true);
  });

  test("an unknown sandbox records nothing", async () => {
    expect(await reportFromPreview(ctx, "nosuchsandbox000", [boom()])).toBe(false);
  });

  test("Vite's overlay, its HMR payload and its log line are one build problem", async () => {
    const p = await projectWithSandbox();
    const message = 'Failed to resolve import "./Missing" from "src/App.tsx". Does the file exist?';
    await reportViteError(ctx, p.sandboxId, {
      message,
      id: "/home/user/project/src/App.tsx",
      loc: { file: "/home/user/project/src/App.tsx", line: 2, column: 20 },
      plugin: "vite:import-analysis",
      frame: "2 | import M from './Missing'",
    });
    await Bun.sleep(2);
    await reportFromPreview(ctx, p.sandboxId, [{ kind: "vite", message, file: "/home/user/project/src/App.tsx:2:20", stack: null }]);
    await Bun.sleep(2);
    await ingestServerOutput(ctx, p.projectId, [
      { t: Date.now(), stream: "stderr", text: `[vite] Internal server error: ${message}` },
      { t: Date.now(), stream: "stderr", text: "  File: /home/user/project/src/App.tsx:2:20" },
    ]);
    const problems = await list(p);
    expect(problems.map(({ source, message: m, file, line, count }) => ({ source, message: m, file, line, count }))).toEqual([
      { source: "build", message, file: "src/App.tsx", line: 2, count: 3 },
    ]);
  });

  test("the same log line ingested twice (two instances on one bus) counts once", async () => {
    const p = await projectWithSandbox();
    const line = { t: Date.now(), stream: "stderr", text: "TypeError: x is not a function" };
    await ingestServerOutput(ctx, p.projectId, [line]);
    await ingestServerOutput(ctx, p.projectId, [line]);
    expect((await list(p)).map((x) => [x.source, x.count])).toEqual([["server", 1]]);
  });

  test("the app's output reaches the list through process.output events on the bus; other processes' does not", async () => {
    const p = await projectWithSandbox();
    const publish = (name: string, text: string) =>
      (ctx.events.publish as (e: unknown) => Promise<void>)({
        type: "process.output",
        projectId: p.projectId,
        name,
        lines: [{ t: Date.now(), stream: "stderr", text }],
      });
    await publish("worker", "Error: from another process");
    await publish("app", "Error: the app crashed");
    const problems = await eventually(
      () => list(p),
      (l) => l.length > 0,
    );
    expect(problems.map((x) => x.message)).toEqual(["Error: the app crashed"]);
  });

  test("at most 100 per project: the least recently seen go", async () => {
    const p = await projectWithSandbox();
    for (let i = 0; i < 105; i += 5) {
      await reportFromPreview(
        ctx,
        p.sandboxId,
        [0, 1, 2, 3, 4].map((j) => ({ kind: "console" as const, message: `problem ${i + j}` })),
      );
      await Bun.sleep(2);
    }
    const problems = await list(p);
    expect(problems).toHaveLength(100);
    const messages = new Set(problems.map((x) => x.message));
    expect(messages.has("problem 104")).toBe(true);
    expect(messages.has("problem 0")).toBe(false);
  });

  test("a file change makes problems stale: gone after the settle window unless reported again", async () => {
    const p = await projectWithSandbox();
    await reportFromPreview(ctx, p.sandboxId, [boom("fixed"), boom("still broken")]);
    await writeFileAtPath(ctx, grantedAccess(p.owner, p.projectId), "src/App.tsx", "export default 1");
    // Marked stale, but listed until the window passes.
    await eventually(
      async () => (await ctx.sql`select count(*)::int as n from problems where project_id = ${p.projectId} and stale_since is not null`)[0]!.n,
      (n) => n === 2,
    );
    expect(await list(p)).toHaveLength(2);
    await reportFromPreview(ctx, p.sandboxId, [boom("still broken")]);
    const before = ctx.published.filter((e) => e.type === "problems.changed" && e.projectId === p.projectId).length;
    const after = await eventually(
      () => list(p),
      (l) => l.length === 1,
    );
    expect(after.map((x) => [x.message, x.count])).toEqual([["Uncaught Error: still broken", 2]]);
    // The sweep told the browsers (without waiting for anyone to read the list).
    await eventually(
      async () => ctx.published.filter((e) => e.type === "problems.changed" && e.projectId === p.projectId).length,
      (n) => n > before,
    );
    expect(ctx.published.filter((e) => e.type === "problems.changed" && e.projectId === p.projectId).length).toBeGreaterThan(before);
  });

  test("a page that loaded before the file change cannot bring a problem back; one that loaded after it can", async () => {
    const p = await projectWithSandbox();
    const loadedBefore = Date.now() - 1_000;
    await reportFromPreview(ctx, p.sandboxId, [
      { ...boom("old page"), loadedAt: loadedBefore },
      { ...boom("new page"), loadedAt: loadedBefore },
    ]);
    await writeFileAtPath(ctx, grantedAccess(p.owner, p.projectId), "src/App.tsx", "export default 2");
    await eventually(
      async () => (await ctx.sql`select count(*)::int as n from problems where project_id = ${p.projectId} and stale_since is not null`)[0]!.n,
      (n) => n === 2,
    );
    await Bun.sleep(5);
    // The old page repeats its error (it still runs the code from before); a page loaded since reports the other.
    await reportFromPreview(ctx, p.sandboxId, [
      { ...boom("old page"), loadedAt: loadedBefore },
      { ...boom("new page"), loadedAt: Date.now() },
    ]);
    const after = await eventually(
      () => list(p),
      (l) => l.length === 1,
    );
    expect(after.map((x) => x.message)).toEqual(["Uncaught Error: new page"]);
  });

  test("a page updated in place judges by the code that threw: an old page whose hot update still throws brings the problem back", async () => {
    const p = await projectWithSandbox();
    const loadedBefore = Date.now() - 60_000;
    await reportFromPreview(ctx, p.sandboxId, [{ ...boom("survives the fix"), loadedAt: loadedBefore, loadAgeMs: 60_000 }]);
    await writeFileAtPath(ctx, grantedAccess(p.owner, p.projectId), "src/App.tsx", "export default 3");
    await eventually(
      async () => (await ctx.sql`select count(*)::int as n from problems where project_id = ${p.projectId} and stale_since is not null`)[0]!.n,
      (n) => n === 1,
    );
    const changedAt = new Date(Date.now() - 1);
    // Stale and not raised again: the run's check does not count it (its first sighting was before the change).
    expect(await browserProblemsSince(ctx, p.projectId, new Date(0))).toEqual([]);
    await Bun.sleep(20);
    // The page that loaded before the change repeats it from its old code: still not counted.
    await reportFromPreview(ctx, p.sandboxId, [{ ...boom("survives the fix"), loadedAt: loadedBefore, loadAgeMs: 60_000 }]);
    expect(await browserProblemsSince(ctx, p.projectId, changedAt)).toEqual([]);
    // Same page (loaded a minute ago), but the module that threw came with the hot update 5 ms ago.
    await reportFromPreview(ctx, p.sandboxId, [{ ...boom("survives the fix"), loadedAt: loadedBefore, loadAgeMs: 5 }]);
    const [row] = await ctx.sql`select stale_since, count from problems where project_id = ${p.projectId}`;
    expect(row!.stale_since).toBeNull();
    // Counted by its latest occurrence, though first seen before the change.
    expect((await browserProblemsSince(ctx, p.projectId, changedAt)).map((x) => x.message)).toEqual(["Uncaught Error: survives the fix"]);
  });

  test("the stale mark counts from the file's change, not from when the bus delivers it: what the new code raised before the mark stays", async () => {
    const p = await projectWithSandbox();
    const changedAt = new Date(Date.now() - 500);
    // The changed code threw (a page loaded after the change) before this instance heard of the change.
    await reportFromPreview(ctx, p.sandboxId, [{ ...boom("new code throws"), loadAgeMs: 100 }]);
    expect(await markProblemsStale(ctx.sql, p.projectId, changedAt)).toBe(0);
    expect((await browserProblemsSince(ctx, p.projectId, changedAt)).map((x) => x.message)).toEqual(["Uncaught Error: new code throws"]);
    // A later change does make it stale.
    expect(await markProblemsStale(ctx.sql, p.projectId, new Date(Date.now() + 1))).toBe(1);
    expect(await browserProblemsSince(ctx, p.projectId, changedAt)).toEqual([]);
  });

  test("a page's `loaded` ping says a preview is open and when its newest code started loading, by the server's clock; it lists no problem", async () => {
    const p = await projectWithSandbox();
    expect(await openPreviewLoad(ctx, p.projectId)).toBeNull();
    const before = Date.now();
    // An error thrown as the hot-updated code rendered, and the ping after it: the code started loading 250 ms ago.
    expect(await reportFromPreview(ctx, p.sandboxId, [boom("at render"), { kind: "loaded", message: "", loadAgeMs: 250 }])).toEqual({ reload: false });
    const load = (await openPreviewLoad(ctx, p.projectId))!;
    expect(load.loadedAt.getTime()).toBeGreaterThanOrEqual(before - 250);
    expect(load.loadedAt.getTime()).toBeLessThanOrEqual(Date.now() - 250);
    expect((await list(p)).map((x) => x.message)).toEqual(["Uncaught Error: at render"]);
    // A later ping of the same page (its code loaded long ago) moves neither the load back nor the list.
    await reportFromPreview(ctx, p.sandboxId, [{ kind: "loaded", message: "", loadAgeMs: 60_000 }]);
    expect((await openPreviewLoad(ctx, p.projectId))!.loadedAt).toEqual(load.loadedAt);
    expect(await list(p)).toHaveLength(1);
    // A page that stopped pinging was closed.
    expect(await openPreviewLoad(ctx, p.projectId, new Date(Date.now() + PREVIEW_OPEN_MS + 1_000))).toBeNull();
  });

  test("a check that asks previews running code from before a change to reload: each such page is answered reload on its next ping, a newer one is not", async () => {
    const p = await projectWithSandbox();
    const ping = (loadAgeMs: number) => reportFromPreview(ctx, p.sandboxId, [{ kind: "loaded", message: "", loadAgeMs }]);
    // A page that loaded 30 s ago and never heard of the change made 10 s ago.
    expect(await ping(30_000)).toEqual({ reload: false });
    await reloadStalePreviews(ctx, p.projectId, new Date(Date.now() - 10_000));
    expect(await ping(30_000)).toEqual({ reload: true });
    // Reloaded: its code is newer than the change, and it is not asked again; nor is another page that had it.
    expect(await ping(50)).toEqual({ reload: false });
    expect(await ping(5_000)).toEqual({ reload: false });
  });

  test("what the check's headless browser found is listed, marked as found by the check, until a preview sees it too", async () => {
    const p = await projectWithSandbox();
    const crash = {
      source: "browser" as const,
      message: "TypeError: plants is null",
      detail: "TypeError: plants is null\n    at App (src/App.tsx:3:9)",
      file: "src/App.tsx",
      line: 3,
    };
    await recordCheckProblems(ctx, p.projectId, p.owner, [{ ...crash, seenAt: new Date(), pageLoadedAt: new Date() }]);
    const [found] = await list(p);
    expect(found).toMatchObject({ source: "browser", message: "TypeError: plants is null", file: "src/App.tsx", line: 3, foundByCheck: true });
    expect(found!.detail).toContain("at App (src/App.tsx:3:9)");
    // The run's check reads it as any browser problem.
    expect((await browserProblemsSince(ctx, p.projectId, new Date(Date.now() - 60_000))).map((x) => x.message)).toEqual(["TypeError: plants is null"]);
    await Bun.sleep(5);
    // The user's preview then throws the same: one row, counted twice, now the preview's.
    await reportFromPreview(ctx, p.sandboxId, [{ kind: "error", message: "TypeError: plants is null", stack: null, file: "src/App.tsx", line: 3 }]);
    const listed = await list(p);
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ count: 2, foundByCheck: false });
  });

  test("clear empties the list; another user's project is not found", async () => {
    const p = await projectWithSandbox();
    await reportFromPreview(ctx, p.sandboxId, [boom()]);
    const mallory = await ctx.newUser("mallory");
    await expect(projectAccess(ctx, mallory, p.projectId, "view")).rejects.toMatchObject({ status: 404 });
    expect(await list(p)).toHaveLength(1);
    await clearProblems(ctx, grantedAccess(p.owner, p.projectId));
    expect(await list(p)).toEqual([]);
  });
});
