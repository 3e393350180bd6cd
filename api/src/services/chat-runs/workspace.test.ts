import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { testApp } from "../../test/test-app";
import { listProjectFiles, readFileContent, writeFileAtPath } from "../files";
import { deleteProject } from "../projects";
import { createRunWorkspace } from "./workspace";

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
  return { ownerId: user.uid, projectId, w: createRunWorkspace(t.deps, null, user.uid, projectId) };
}

describe("run workspace", () => {
  test("files: a write is stored (created, then replaced), read back and listed through the file service", async () => {
    const { ownerId, projectId, w } = await workspace();
    expect(await w.files.write("src/a.ts", "one")).toEqual({ path: "src/a.ts", size: 3, created: true });
    expect(await w.files.write("src/a.ts", "three")).toEqual({ path: "src/a.ts", size: 5, created: false });
    expect(await w.files.read("src/a.ts")).toMatchObject({ content: "three", binary: false, size: 5 });
    expect(await w.files.read("missing.ts")).toBeNull();
    expect((await w.files.list()).map((f) => [f.path, f.size])).toEqual([["src/a.ts", 5]]);
    const stored = (await listProjectFiles(t.deps, ownerId, projectId))[0]!;
    expect((await readFileContent(t.deps, ownerId, projectId, stored.id)).content).toBe("three");
  });

  test("a binary file reads as binary; the workflow command is recorded on the project (404 once it is gone); no sandboxes, no sandbox", async () => {
    const { ownerId, projectId, w } = await workspace();
    await writeFileAtPath(t.deps, ownerId, projectId, "logo.bin", new Uint8Array([0, 1, 2]));
    expect(await w.files.read("logo.bin")).toMatchObject({ content: "", binary: true, size: 3 });
    await w.workflow.set("node server.js");
    const [row] = await t.db.sql<{ workflowCommand: string }[]>`select workflow_command as "workflowCommand" from projects where id = ${projectId}`;
    expect(row!.workflowCommand).toBe("node server.js");
    expect(w.sandbox).toBeNull();
    await deleteProject(t.deps, ownerId, projectId);
    await expect(w.workflow.set("npm start")).rejects.toMatchObject({ status: 404 });
  });
});
