import { afterAll, describe, expect, test } from "bun:test";
import { grantedAccess, ownerFileAccess } from "../../test/access";
import { blobKey } from "../../db/blobs";
import { latestVersion, listVersions } from "../../db/versions";
import type { ObjectStore } from "../../storage/types";
import { deleteProjectFile, writeFileAtPath } from "../files";
import { versionAfterUserEdit, versionsAroundRun } from "./hooks";
import { sha256Hex, takeVersion } from "./snapshot";
import { dbLabel, newProject, openStore, serviceContext, STORE_KINDS, stopStores } from "../../test/versions-support";

afterAll(() => stopStores());

/** Counts reads and writes, to show what taking a version costs. */
function counting(store: ObjectStore) {
  const counts = { get: 0, put: 0 };
  const wrapped: ObjectStore = {
    kind: store.kind,
    get: (key) => (counts.get++, store.get(key)),
    getStream: (key) => (counts.get++, store.getStream(key)),
    put: (key, body) => (counts.put++, store.put(key, body)),
    delete: (key) => store.delete(key),
    deletePrefix: (prefix) => store.deletePrefix(prefix),
    list: (prefix) => store.list(prefix),
    ping: () => store.ping(),
  };
  return { store: wrapped, counts };
}

for (const kind of STORE_KINDS) {
  // Both stores share one test database (and so one blobs table): content differs per store, so the
  // S3 run never finds a blob recorded as stored by the local run.
  const salt = `${kind}-${crypto.randomUUID()}`;
  describe(`snapshots (${dbLabel()}, ${kind} store)`, () => {
    test("a version names every file by hash; unchanged files add no version", async () => {
      const ctx = await serviceContext(await openStore(kind));
      const { ownerId, projectId } = await newProject(ctx);
      const text = `export const a = 1; // ${salt}\n`;
      const binary = Uint8Array.from([0, 1, 2, 255, ...new TextEncoder().encode(salt)]);
      await writeFileAtPath(ctx, grantedAccess(ownerId, projectId), "src/a.ts", text);
      await writeFileAtPath(ctx, grantedAccess(ownerId, projectId), "logo.bin", binary);

      const first = await takeVersion(ctx, { projectId, source: "manual", label: "First" });
      expect(first.created).toBe(true);
      expect(first.version).toMatchObject({ label: "First", source: "manual", filesChanged: 2, bytes: text.length + binary.length });
      const stored = await latestVersion(ctx.sql, projectId);
      expect(stored!.manifest).toEqual({
        "logo.bin": [sha256Hex(binary), binary.length, 0o644],
        "src/a.ts": [sha256Hex(new TextEncoder().encode(text)), text.length, 0o644],
      });
      expect(await ctx.store.get(blobKey(stored!.manifest["logo.bin"]![0]))).toEqual(binary);

      const again = await takeVersion(ctx, { projectId, source: "agent", label: "Nothing new" });
      expect(again).toMatchObject({ created: false, version: { id: first.version.id } });
      const named = await takeVersion(ctx, { projectId, source: "manual", label: "Named anyway", force: true });
      expect(named).toMatchObject({ created: true, version: { filesChanged: 0, bytes: 0 } });
    });

    test("one changed file among many costs the save's one write and one row; the version reads and writes nothing", async () => {
      const base = await openStore(kind);
      const ctx = await serviceContext(base);
      const { ownerId, projectId } = await newProject(ctx);
      for (let i = 0; i < 30; i++) await writeFileAtPath(ctx, grantedAccess(ownerId, projectId), `src/file-${i}.ts`, `export const n = ${i}; // ${salt}\n`);
      await takeVersion(ctx, { projectId, source: "manual", label: "Base" });
      const blobsBefore = (await base.list("blobs/")).length;

      const changed = `export const n = 'seven'; // ${salt}\n`;
      const { store, counts } = counting(base);
      await writeFileAtPath({ ...ctx, store }, grantedAccess(ownerId, projectId), "src/file-7.ts", changed);
      expect(counts).toEqual({ get: 0, put: 1 });
      const taken = await takeVersion({ ...ctx, store }, { projectId, source: "manual", label: "Changed one" });
      expect(taken.version).toMatchObject({ filesChanged: 1, bytes: new TextEncoder().encode(changed).length });
      expect(counts).toEqual({ get: 0, put: 1 });
      const newBlobs = (await base.list("blobs/")).length - blobsBefore;
      expect(newBlobs).toBe(1);
      expect((await listVersions(ctx.sql, projectId, { limit: 10 })).length).toBe(2);
      // One small row: the changed entry over the first version's full manifest, and no new full manifest.
      const rows = await ctx.sql<{ delta: Record<string, unknown>; base: string }[]>`
        select delta, base_manifest_id as base from versions where project_id = ${projectId} order by seq`;
      expect(rows.map((r) => Object.keys(r.delta))).toEqual([[], ["src/file-7.ts"]]);
      expect(rows[1]!.base).toBe(rows[0]!.base);
      expect((await latestVersion(ctx.sql, projectId))!.manifest["src/file-7.ts"]![0]).toBe(sha256Hex(new TextEncoder().encode(changed)));
    });

    test("content written before hashes were kept is read and hashed once, then moves to its blob on the next save", async () => {
      const base = await openStore(kind);
      const ctx = await serviceContext(base);
      const { ownerId, projectId } = await newProject(ctx);
      const old = new TextEncoder().encode(`written long ago ${salt}`);
      const { file } = await writeFileAtPath(ctx, grantedAccess(ownerId, projectId), "old.txt", old);
      // As migration 00013 leaves a file whose hash was never taken: its own object, no hash on the row.
      const legacyKey = `projects/${projectId}/files/${file.id}/${crypto.randomUUID()}`;
      await base.put(legacyKey, old);
      await ctx.sql`update files set storage_key = ${legacyKey}, sha256 = null where id = ${file.id}`;
      await ctx.sql`delete from blobs where sha256 = ${sha256Hex(old)}`;
      await base.delete(blobKey(sha256Hex(old)));

      const { store, counts } = counting(base);
      await takeVersion({ ...ctx, store }, { projectId, source: "manual", label: "First" });
      expect(counts).toEqual({ get: 1, put: 1 });
      expect([...(await ctx.sql`select sha256 from files where id = ${file.id}`)]).toEqual([{ sha256: sha256Hex(old) }]);
      expect(await base.get(blobKey(sha256Hex(old)))).toEqual(old);
      await takeVersion({ ...ctx, store }, { projectId, source: "manual", label: "Second", force: true });
      expect(counts).toEqual({ get: 1, put: 1 });

      await writeFileAtPath(ctx, grantedAccess(ownerId, projectId), "old.txt", `new ${salt}`);
      expect(await base.get(legacyKey)).toBeNull(); // the old per-file object goes with the content it held
    });

    test("a version that changes much of the project starts a new full manifest; each version still reads whole", async () => {
      const ctx = await serviceContext(await openStore(kind));
      const { ownerId, projectId } = await newProject(ctx);
      for (let i = 0; i < 40; i++) await writeFileAtPath(ctx, grantedAccess(ownerId, projectId), `f${i}.txt`, `${i} ${salt}`);
      const { version: first } = await takeVersion(ctx, { projectId, source: "manual", label: "First" });
      for (let i = 0; i < 35; i++) await writeFileAtPath(ctx, grantedAccess(ownerId, projectId), `f${i}.txt`, `${i} changed ${salt}`);
      const { version: second } = await takeVersion(ctx, { projectId, source: "manual", label: "Most files changed" });
      expect(second.baseManifestId).not.toBe(first.baseManifestId);
      expect(second).toMatchObject({ filesChanged: 35 });
      const [row] = await ctx.sql<{ delta: object }[]>`select delta from versions where id = ${second.id}`;
      expect(row!.delta).toEqual({});
      const { findVersion } = await import("../../db/versions");
      expect((await findVersion(ctx.sql, projectId, first.id))!.manifest["f0.txt"]![0]).toBe(sha256Hex(new TextEncoder().encode(`0 ${salt}`)));
      expect((await findVersion(ctx.sql, projectId, second.id))!.manifest["f0.txt"]![0]).toBe(sha256Hex(new TextEncoder().encode(`0 changed ${salt}`)));
    });

    test("the same bytes in two projects are stored once", async () => {
      const ctx = await serviceContext(await openStore(kind));
      const one = await newProject(ctx, "one");
      const two = await newProject(ctx, "two");
      const content = `shared ${crypto.randomUUID()}\n`;
      await writeFileAtPath(ctx, grantedAccess(one.ownerId, one.projectId), "a.txt", content);
      await writeFileAtPath(ctx, grantedAccess(two.ownerId, two.projectId), "elsewhere/b.txt", content);
      await takeVersion(ctx, { projectId: one.projectId, source: "manual", label: "One" });
      const keysBefore = await ctx.store.list("blobs/");
      await takeVersion(ctx, { projectId: two.projectId, source: "manual", label: "Two" });
      expect(await ctx.store.list("blobs/")).toEqual(keysBefore);
      expect(keysBefore).toContain(blobKey(sha256Hex(new TextEncoder().encode(content))));
    });

    test("user edits within a minute are one version; a later edit starts another", async () => {
      const ctx = await serviceContext(await openStore(kind));
      const { ownerId, projectId } = await newProject(ctx);
      await writeFileAtPath(ctx, grantedAccess(ownerId, projectId), "a.txt", "v1");
      await takeVersion(ctx, { projectId, source: "agent", label: "Agent made a.txt" });
      await writeFileAtPath(ctx, grantedAccess(ownerId, projectId), "a.txt", "v2");
      await versionAfterUserEdit(ctx, projectId);
      const { file } = await writeFileAtPath(ctx, grantedAccess(ownerId, projectId), "b.txt", "new");
      await versionAfterUserEdit(ctx, projectId);

      let list = await listVersions(ctx.sql, projectId, { limit: 10 });
      expect(list.map((v) => [v.source, v.filesChanged])).toEqual([
        ["user", 2],
        ["agent", 1],
      ]);
      expect(list[0]!.parentId).toBe(list[1]!.id);

      // The window closes a minute after the first edit of the group.
      await ctx.sql`update versions set coalesce_until = now() - interval '1 second' where id = ${list[0]!.id}`;
      await deleteProjectFile(ctx, await ownerFileAccess(ctx, ownerId, file.id), file.id);
      await versionAfterUserEdit(ctx, projectId);
      list = await listVersions(ctx.sql, projectId, { limit: 10 });
      expect(list.map((v) => [v.source, v.filesChanged])).toEqual([
        ["user", 1],
        ["user", 2],
        ["agent", 1],
      ]);
    });

    test("an agent run that changed files gets a version before and after; one that changed nothing gets none", async () => {
      const ctx = await serviceContext(await openStore(kind));
      const { ownerId, projectId } = await newProject(ctx);
      await writeFileAtPath(ctx, grantedAccess(ownerId, projectId), "index.html", "<h1>Hi</h1>");
      const messageId = crypto.randomUUID();

      const idle = await versionsAroundRun(ctx, { projectId, label: "Explain the code", messageId: crypto.randomUUID() });
      await idle.after();
      expect(await listVersions(ctx.sql, projectId, { limit: 10 })).toEqual([]);

      const around = await versionsAroundRun(ctx, { projectId, label: "  Make the heading\n red ", messageId });
      await writeFileAtPath(ctx, grantedAccess(ownerId, projectId), "index.html", "<h1 style='color:red'>Hi</h1>");
      await around.after();
      const list = await listVersions(ctx.sql, projectId, { limit: 10 });
      expect(list.map((v) => [v.source, v.label, v.messageId])).toEqual([
        ["agent", "Make the heading red", messageId],
        ["agent", "Before: Make the heading red", messageId],
      ]);
      expect(list[0]!.parentId).toBe(list[1]!.id);
    });
  });
}
