import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { grantedAccess } from "../../test/access";
import type { Sql } from "../../db/client";
import { silentLogger } from "../../lib/logger";
import { createSandboxProvider } from "../../sandbox/index";
import { checkLocalSandboxSupport } from "../../sandbox/local/check";
import { memoryProvider } from "../../test/memory-provider";
import { testApp } from "../../test/test-app";
import { listProjectFiles, readFileContent, writeFileAtPath } from "../files";
import { projectAccess } from "../access";
import { deleteProject } from "../projects";
import { createProjectSandboxes } from "../sandboxes";
import { createRunWorkspace } from "./workspace";

const support = await checkLocalSandboxSupport();

// The workspace adapter over the real file service (no sandbox here: run-shell.test.ts covers commands).
let t: Awaited<ReturnType<typeof testApp>>;
beforeAll(async () => {
  t = await testApp();
}, 60_000);
afterAll(() => t.deps.runs.shutdown());

async function workspace() {
  const user = t.user("ws");
  const res = await user.request("POST", "/api/projects", { name: "Workspace" });
  const projectId = ((await res.json()) as { id: string }).id;
  return { ownerId: user.uid, projectId, w: createRunWorkspace(t.deps, null, grantedAccess(user.uid, projectId)) };
}

describe("run workspace", () => {
  test("files: a write is stored (created, then replaced), read back and listed through the file service", async () => {
    const { ownerId, projectId, w } = await workspace();
    expect(await w.files.write("src/a.ts", "one")).toEqual({ path: "src/a.ts", size: 3, created: true });
    expect(await w.files.write("src/a.ts", "three")).toEqual({ path: "src/a.ts", size: 5, created: false });
    expect(await w.files.read("src/a.ts")).toMatchObject({ content: "three", binary: false, size: 5 });
    expect(await w.files.read("missing.ts")).toBeNull();
    expect((await w.files.list()).map((f) => [f.path, f.size])).toEqual([["src/a.ts", 5]]);
    const stored = (await listProjectFiles(t.deps, grantedAccess(ownerId, projectId)))[0]!;
    expect((await readFileContent(t.deps, grantedAccess(ownerId, projectId), stored.id)).content).toBe("three");
  });

  test("a binary file reads as binary; the workflow command is recorded on the project (404 once it is gone); no sandboxes, no sandbox", async () => {
    const { ownerId, projectId, w } = await workspace();
    await writeFileAtPath(t.deps, grantedAccess(ownerId, projectId), "logo.bin", new Uint8Array([0, 1, 2]));
    expect(await w.files.read("logo.bin")).toMatchObject({ content: "", binary: true, size: 3 });
    await w.workflow.set("node server.js");
    const [row] = await t.db.sql<{ workflowCommand: string }[]>`select workflow_command as "workflowCommand" from projects where id = ${projectId}`;
    expect(row!.workflowCommand).toBe("node server.js");
    expect(w.sandbox).toBeNull();
    await deleteProject(t.deps, grantedAccess(ownerId, projectId));
    await expect(w.workflow.set("npm start")).rejects.toMatchObject({ status: 404 });
  });
});

describe("run workspace with a sandbox attached", () => {
  test("an agent's write_file lands in the sandbox once, pushed from the bytes in hand, and is stored once", async () => {
    const p = memoryProvider({ startMs: 0 });
    const sandboxes = createProjectSandboxes({ ...t.deps, provider: p.provider, config: t.deps.config });
    try {
      const user = t.user("one-write");
      const projectId = ((await (await user.request("POST", "/api/projects", { name: "One write" })).json()) as { id: string }).id;
      const w = createRunWorkspace({ ...t.deps, sandboxSync: sandboxes.sync }, sandboxes, grantedAccess(user.uid, projectId));
      await w.sandbox!.run("true", { timeoutMs: 5_000, signal: AbortSignal.timeout(5_000) }); // the run's sandbox, made
      const box = p.boxes.get(p.created[0]!)!;
      await w.files.write("src/app.ts", "export const one = 1;\n");
      await w.files.write("src/app.ts", "export const two = 2;\n");
      await Bun.sleep(200); // the sandbox's watcher reports both writes back: echoes, dropped
      expect(box.writes.get("src/app.ts")).toBe(2);
      expect(new TextDecoder().decode((await box.sandbox.files.read("src/app.ts"))!)).toBe("export const two = 2;\n");
      const [stored] = await listProjectFiles(t.deps, grantedAccess(user.uid, projectId));
      expect(stored).toMatchObject({ path: "src/app.ts" });
      expect((await readFileContent(t.deps, grantedAccess(user.uid, projectId), stored!.id)).content).toBe("export const two = 2;\n");
    } finally {
      await sandboxes.shutdown();
    }
  });
});

/** `sql` that counts the project ownership lookups made through it (a query on `projects` scoped by `owner_id`). */
function countingOwnerLookups(sql: Sql) {
  const counter = { lookups: 0 };
  const counted = new Proxy(sql, {
    apply(target, self, args: unknown[]) {
      const strings = args[0];
      if (Array.isArray(strings) && /\bprojects\b[\s\S]*\bowner_id\b/.test(strings.join("$"))) counter.lookups++;
      return Reflect.apply(target, self, args);
    },
  });
  return { sql: counted, counter };
}

describe.skipIf(!support.ok)("run workspace in a real local sandbox", () => {
  test("ownership is looked up once per run (at its start), not again by the sandbox tools, the template or the app checks", async () => {
    const { sql, counter } = countingOwnerLookups(t.db.sql);
    const ctx = { ...t.deps, sql };
    const sandboxes = createProjectSandboxes({ ...ctx, provider: createSandboxProvider(t.deps.config, silentLogger), config: t.deps.config });
    try {
      const user = t.user("owner-once");
      const projectId = ((await (await user.request("POST", "/api/projects", { name: "Once" })).json()) as { id: string }).id;
      const before = counter.lookups;
      const access = await projectAccess(ctx, user.uid, projectId, "edit"); // the run's own check, at its start
      const w = createRunWorkspace({ ...ctx, sandboxSync: sandboxes.sync }, sandboxes, access);
      expect((await w.sandbox!.run("echo hi", { timeoutMs: 10_000, signal: AbortSignal.timeout(10_000) })).stdout).toBe("hi\n");
      await w.files.write("notes.txt", "one");
      expect((await w.sandbox!.run("cat notes.txt", { timeoutMs: 10_000, signal: AbortSignal.timeout(10_000) })).stdout).toBe("one");
      const applied = await w.sandbox!.applyTemplate("node"); // writes each of the template's files
      expect(applied.filesWritten).toBeGreaterThan(1);
      expect((await w.app!.status()).status).not.toBe("not_configured");
      await w.app!.logTail(1000);
      await w.app!.problemsSince(new Date(0));
      await w.app!.restart();
      expect(counter.lookups - before).toBe(1);
      // Each request checks again: a second check is a second lookup.
      await projectAccess(ctx, user.uid, projectId, "view");
      expect(counter.lookups - before).toBe(2);
    } finally {
      await sandboxes.shutdown();
    }
  }, 90_000);
});
