/**
 * The file service on the real database and a local store: writes, limits, renames and deletes, the events
 * they publish, and the bytes they hand to the sandbox hook.
 */
import { grantedAccess, ownerFileAccess } from "../test/access";
import { beforeAll, describe, expect, test } from "bun:test";
import { blobKey } from "../db/blobs";
import { latestVersion } from "../db/versions";
import { AppError } from "../lib/errors";
import type { ObjectStore } from "../storage/types";
import { serviceContext } from "../test/service-context";
import type { SandboxSync, ServiceContext } from "./context";
import { downloadProject } from "./download-map";
import { deleteProjectFile, listProjectFiles, readFileContent, renameProjectFile, saveFileContent, writeFileAtPath } from "./files";
import { createProject } from "./projects";
import { sha256Hex } from "./content-blobs";
import { saveFileAsUser } from "./file-edits";
import { versionAfterUserEdit } from "./versions/hooks";

let ctx: Awaited<ReturnType<typeof serviceContext>>;
beforeAll(async () => {
  ctx = await serviceContext({ limits: { maxFilesPerProject: 3, maxProjectBytes: 64 } });
}, 60_000);

async function project(name: string) {
  const uid = await ctx.newUser(name);
  return { uid, projectId: (await createProject(ctx, uid, { name })).id };
}
const status = (promise: Promise<unknown>) =>
  promise.then(
    () => 200,
    (e: unknown) => (e instanceof AppError ? e.status : 500),
  );
const eventsOf = async (projectId: string) => {
  await Bun.sleep(0); // the memory bus delivers a microtask later
  return ctx.published.filter((e) => e.projectId === projectId);
};

const encode = (text: string) => new TextEncoder().encode(text);

/** Records every storage operation made through it, in order. */
function countingStore(inner: ObjectStore) {
  const ops: [string, string][] = [];
  const store: ObjectStore = {
    kind: inner.kind,
    put: (key, body, type) => (ops.push(["put", key]), inner.put(key, body, type)),
    get: (key) => (ops.push(["get", key]), inner.get(key)),
    getStream: (key) => (ops.push(["getStream", key]), inner.getStream(key)),
    delete: (key) => (ops.push(["delete", key]), inner.delete(key)),
    deletePrefix: (prefix) => (ops.push(["deletePrefix", prefix]), inner.deletePrefix(prefix)),
    list: (prefix) => (ops.push(["list", prefix]), inner.list(prefix)),
    ping: () => inner.ping(),
  };
  return { store, ops };
}

/** A SandboxSync that records what it is handed. */
function recordingSync(fail = false) {
  const calls: unknown[][] = [];
  const sync: SandboxSync = {
    id: "recorder",
    written: async (projectId, path, bytes) => {
      calls.push(["written", projectId, path, new TextDecoder().decode(bytes)]);
      if (fail) throw new Error("sandbox gone");
    },
    removed: async (...args) => void calls.push(["removed", ...args]),
    renamed: async (...args) => void calls.push(["renamed", ...args]),
  };
  return { sync, calls };
}

describe("files service", () => {
  test("write creates, then replaces at the same path; each publishes its event", async () => {
    const { uid, projectId } = await project("alice");
    const first = await writeFileAtPath(ctx, grantedAccess(uid, projectId), "src/a.txt", "one");
    expect(first.created).toBe(true);
    const second = await writeFileAtPath(ctx, grantedAccess(uid, projectId), "src/a.txt", "three");
    expect(second).toMatchObject({ created: false, file: { id: first.file.id, size: 5 } });
    expect((await readFileContent(ctx, grantedAccess(uid, projectId), first.file.id)).content).toBe("three");
    // Content is stored as its blob, the row recording its hash: nothing per file under the project.
    expect(await ctx.store.list(`projects/${projectId}/`)).toEqual([]);
    const [row] = await ctx.sql<{ storageKey: string; sha256: string }[]>`select storage_key as "storageKey", sha256 from files where id = ${first.file.id}`;
    expect(row).toEqual({ storageKey: blobKey(sha256Hex(encode("three"))), sha256: sha256Hex(encode("three")) });
    expect((await eventsOf(projectId)).map((e) => [e.type, e.origin, e.pushedBy])).toEqual([
      ["file.created", "api", undefined],
      ["file.updated", "api", undefined],
    ]);
  });

  test("every change hands the sandbox hook the bytes in hand and marks its event as pushed", async () => {
    const { uid, projectId } = await project("bob");
    const { sync, calls } = recordingSync();
    const withSync: ServiceContext = { ...ctx, sandboxSync: sync };
    const { file } = await writeFileAtPath(withSync, grantedAccess(uid, projectId), "x.txt", "v1");
    await saveFileContent(withSync, await ownerFileAccess(withSync, uid, file.id), file.id, "v2");
    await renameProjectFile(withSync, await ownerFileAccess(withSync, uid, file.id), file.id, "y.txt");
    await deleteProjectFile(withSync, await ownerFileAccess(withSync, uid, file.id), file.id);
    expect(calls).toEqual([
      ["written", projectId, "x.txt", "v1"],
      ["written", projectId, "x.txt", "v2"],
      ["renamed", projectId, "x.txt", "y.txt"],
      ["removed", projectId, "y.txt"],
    ]);
    expect((await eventsOf(projectId)).map((e) => e.pushedBy)).toEqual(["recorder", "recorder", "recorder", "recorder"]);
  });

  test("a sandbox that cannot take the change does not fail the write (storage is the truth)", async () => {
    const { uid, projectId } = await project("carol");
    const { sync } = recordingSync(true);
    const { file } = await writeFileAtPath({ ...ctx, sandboxSync: sync }, grantedAccess(uid, projectId), "z.txt", "kept");
    expect((await readFileContent(ctx, grantedAccess(uid, projectId), file.id)).content).toBe("kept");
  });

  test("file count and project size limits answer 413 and store nothing", async () => {
    const { uid, projectId } = await project("dave");
    for (const name of ["1", "2", "3"]) await writeFileAtPath(ctx, grantedAccess(uid, projectId), `${name}.txt`, name);
    expect(await status(writeFileAtPath(ctx, grantedAccess(uid, projectId), "4.txt", "4"))).toBe(413);
    expect(await status(writeFileAtPath(ctx, grantedAccess(uid, projectId), "1.txt", "x".repeat(70)))).toBe(413);
    expect((await listProjectFiles(ctx, grantedAccess(uid, projectId))).map((f) => f.path).sort()).toEqual(["1.txt", "2.txt", "3.txt"]);
    expect(await ctx.store.get(blobKey(sha256Hex(encode("4"))))).toBeNull();
    expect(await ctx.store.get(blobKey(sha256Hex(encode("x".repeat(70)))))).toBeNull();
  });

  test("a save is one storage write, and the user version after it touches storage not at all", async () => {
    const { uid, projectId } = await project("fay");
    const { file } = await writeFileAtPath(ctx, grantedAccess(uid, projectId), "app.ts", "export const n = 0;\n");
    await versionAfterUserEdit(ctx, projectId);
    const { store, ops } = countingStore(ctx.store);
    const counted: ServiceContext = { ...ctx, store };

    await saveFileAsUser(counted, await ownerFileAccess(counted, uid, file.id), file.id, "export const n = 1;\n");
    expect(ops).toEqual([["put", blobKey(sha256Hex(encode("export const n = 1;\n")))]]);
    ops.length = 0;
    await saveFileContent(counted, await ownerFileAccess(counted, uid, file.id), file.id, "export const n = 2;\n");
    await versionAfterUserEdit(counted, projectId);
    expect(ops.map(([op]) => op)).toEqual(["put"]); // the save's put; the version read and wrote nothing
    const latest = await latestVersion(ctx.sql, projectId);
    expect(latest!.manifest["app.ts"]![0]).toBe(sha256Hex(encode("export const n = 2;\n")));
  });

  test("rename onto a taken path is 409; another user's file is 404; binary content is flagged and downloaded as base64", async () => {
    const { uid, projectId } = await project("erin");
    const a = (await writeFileAtPath(ctx, grantedAccess(uid, projectId), "a.txt", "A")).file;
    await writeFileAtPath(ctx, grantedAccess(uid, projectId), "b.txt", "B");
    expect(await status(renameProjectFile(ctx, await ownerFileAccess(ctx, uid, a.id), a.id, "b.txt"))).toBe(409);
    const stranger = await ctx.newUser("stranger");
    expect(await status(ownerFileAccess(ctx, stranger, a.id))).toBe(404);
    // A file id from another project, with a real access to this one, is a missing file too.
    const other = await createProject(ctx, stranger, { name: "Other" });
    const otherAccess = await ownerFileAccess(ctx, stranger, (await writeFileAtPath(ctx, grantedAccess(stranger, other.id), "o.txt", "o")).file.id);
    expect(await status(saveFileContent(ctx, otherAccess, a.id, "mine"))).toBe(404);
    expect(await status(deleteProjectFile(ctx, otherAccess, a.id))).toBe(404);

    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 1, 2]);
    const img = (await writeFileAtPath(ctx, grantedAccess(uid, projectId), "i.png", png)).file;
    expect(await readFileContent(ctx, grantedAccess(uid, projectId), img.id)).toMatchObject({ binary: true, content: "" });
    const zip = await downloadProject(ctx, grantedAccess(uid, projectId));
    expect(zip).toMatchObject({ filesCount: 3, binary: ["i.png"], files: { "a.txt": "A", "b.txt": "B", "i.png": Buffer.from(png).toString("base64") } });
  });
});
