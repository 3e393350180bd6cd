import { afterAll, describe, expect, test } from "bun:test";
import { projectAccess } from "../access";
import { grantedAccess, ownerFileAccess } from "../../test/access";
import * as fileRows from "../../db/files";
import { blobKey } from "../../db/blobs";
import type { Sql } from "../../db/client";
import { findVersion, listVersions } from "../../db/versions";
import { AppError } from "../../lib/errors";
import type { ServiceContext } from "../context";
import { deleteProjectFile, renameProjectFile, writeFileAtPath } from "../files";
import { deleteProject } from "../projects";
import { RESTORE_DURING_RUN, restoreVersion } from "./restore";
import { sweepBlobs } from "./retention";
import { sha256Hex, takeVersion } from "./snapshot";
import { dbLabel, newProject, openStore, serviceContext, STORE_KINDS, stopStores } from "../../test/versions-support";

afterAll(() => stopStores());

/** Every file of the project as path → bytes, read back through the store. */
async function filesOf(ctx: ServiceContext, projectId: string): Promise<Record<string, Uint8Array>> {
  const out: Record<string, Uint8Array> = {};
  for (const row of await fileRows.listFiles(ctx.sql, projectId)) out[row.path] = (await ctx.store.get(row.storageKey))!;
  return out;
}

/** `sql` that runs `after` once, as soon as the first query whose text includes `marker` has answered. */
function sqlAfter(sql: Sql, marker: string, after: () => Promise<void>): Sql {
  let done = false;
  return new Proxy(sql, {
    apply(target, thisArg, args: unknown[]) {
      const query = Reflect.apply(target, thisArg, args) as Promise<unknown>;
      const strings = args[0];
      if (done || !Array.isArray(strings) || !strings.join("").includes(marker)) return query;
      done = true;
      return query.then(async (rows) => {
        await after();
        return rows;
      });
    },
  });
}

const everyByte = Uint8Array.from({ length: 512 }, (_, i) => (i * 7) % 256);

for (const kind of STORE_KINDS) {
  const salt = `${kind}-${crypto.randomUUID()}`;
  describe(`restore (${dbLabel()}, ${kind} store)`, () => {
    test("snapshot, change, restore gives byte-identical files, binary included", async () => {
      const ctx = await serviceContext(await openStore(kind));
      const { ownerId, projectId } = await newProject(ctx);
      await writeFileAtPath(ctx, grantedAccess(ownerId, projectId), "src/App.tsx", `export default () => <h1>${salt}</h1>;\n`);
      await writeFileAtPath(ctx, grantedAccess(ownerId, projectId), "public/logo.png", Uint8Array.from([...everyByte, salt.length]));
      await writeFileAtPath(ctx, grantedAccess(ownerId, projectId), "README.md", `# Read me ${salt}\n`);
      const { file: doomed } = await writeFileAtPath(ctx, grantedAccess(ownerId, projectId), "old.txt", `to be removed ${salt}`);
      const original = await filesOf(ctx, projectId);
      const { version: saved } = await takeVersion(ctx, { projectId, source: "manual", label: "Good state" });

      await writeFileAtPath(ctx, grantedAccess(ownerId, projectId), "src/App.tsx", `broken ${salt}`);
      await writeFileAtPath(ctx, grantedAccess(ownerId, projectId), "public/logo.png", new TextEncoder().encode(`not a png ${salt}`));
      await writeFileAtPath(ctx, grantedAccess(ownerId, projectId), "src/new.ts", `added later ${salt}`);
      await deleteProjectFile(ctx, await ownerFileAccess(ctx, ownerId, doomed.id), doomed.id);
      const readme = (await fileRows.findFileByPath(ctx.sql, projectId, "README.md"))!;
      await renameProjectFile(ctx, await ownerFileAccess(ctx, ownerId, readme.id), readme.id, "docs/README.md");
      ctx.published.length = 0;

      const result = await restoreVersion(ctx, grantedAccess(ownerId, projectId), saved.id);
      expect(result).toMatchObject({ written: 4, deleted: 2, version: { source: "restore", label: 'Restored "Good state"' } });
      expect(await filesOf(ctx, projectId)).toEqual(original);

      // Browsers (and the sandbox sync) hear of every change.
      await Bun.sleep(10);
      const events = ctx.published.map((e) => `${e.type} ${"file" in e ? e.file.path : ""}`).sort();
      expect(events).toEqual([
        "file.created README.md",
        "file.created old.txt",
        "file.deleted docs/README.md",
        "file.deleted src/new.ts",
        "file.updated public/logo.png",
        "file.updated src/App.tsx",
      ]);

      const list = await listVersions(ctx.sql, projectId, { limit: 10 });
      expect(list.map((v) => [v.source, v.label])).toEqual([
        ["restore", 'Restored "Good state"'],
        ["restore", 'Before restoring "Good state"'],
        ["manual", "Good state"],
      ]);
      // The state before the restore can itself be restored.
      await restoreVersion(ctx, grantedAccess(ownerId, projectId), list[1]!.id);
      expect(Object.keys(await filesOf(ctx, projectId)).sort()).toEqual(["docs/README.md", "public/logo.png", "src/App.tsx", "src/new.ts"]);
    });

    test("a save racing the restore is not lost: it lands after, or is kept as its own version", async () => {
      const base = await openStore(kind);
      const ctx = await serviceContext(base);
      const { ownerId, projectId } = await newProject(ctx);
      await writeFileAtPath(ctx, grantedAccess(ownerId, projectId), "a.txt", `a old ${salt}`);
      await writeFileAtPath(ctx, grantedAccess(ownerId, projectId), "b.txt", `b old ${salt}`);
      const { version: target } = await takeVersion(ctx, { projectId, source: "manual", label: "Target" });
      await writeFileAtPath(ctx, grantedAccess(ownerId, projectId), "a.txt", `a new ${salt}`);
      await writeFileAtPath(ctx, grantedAccess(ownerId, projectId), "b.txt", `b new ${salt}`);
      await writeFileAtPath(ctx, grantedAccess(ownerId, projectId), "extra.txt", `extra ${salt}`);

      // Once the restore has listed the files for its "before" version (none changed yet), someone saves
      // a.txt and extra.txt, which the restore then replaces and removes.
      let raced = false;
      const racing: ServiceContext = {
        ...ctx,
        sql: sqlAfter(ctx.sql, 'as "storageKey", sha256 from files', async () => {
          raced = true;
          await writeFileAtPath(ctx, grantedAccess(ownerId, projectId), "a.txt", `a saved mid-restore ${salt}`);
          await writeFileAtPath(ctx, grantedAccess(ownerId, projectId), "extra.txt", `extra saved mid-restore ${salt}`);
        }),
      };
      await restoreVersion(racing, grantedAccess(ownerId, projectId), target.id);
      expect(raced).toBe(true);
      const now = await filesOf(ctx, projectId);
      expect(Object.fromEntries(Object.entries(now).map(([p, b]) => [p, new TextDecoder().decode(b)]))).toEqual({
        "a.txt": `a old ${salt}`,
        "b.txt": `b old ${salt}`,
      });

      const list = await listVersions(ctx.sql, projectId, { limit: 10 });
      expect(list.map((v) => [v.source, v.label])).toEqual([
        ["restore", 'Restored "Target"'],
        ["user", "Saved during the restore"],
        ["restore", 'Before restoring "Target"'],
        ["manual", "Target"],
      ]);
      const saved = await findVersion(ctx.sql, projectId, list[1]!.id);
      const text = async (path: string) => new TextDecoder().decode((await ctx.store.get(blobKey(saved!.manifest[path]![0])))!);
      expect(await text("a.txt")).toBe(`a saved mid-restore ${salt}`);
      expect(await text("extra.txt")).toBe(`extra saved mid-restore ${salt}`);
      expect(await text("b.txt")).toBe(`b new ${salt}`);
    });

    test("a version deleted by retention while it is restored still restores whole", async () => {
      const base = await openStore(kind);
      const ctx = await serviceContext(base);
      const { ownerId, projectId } = await newProject(ctx);
      await writeFileAtPath(ctx, grantedAccess(ownerId, projectId), "old.txt", `from long ago ${salt}`);
      const { version: target } = await takeVersion(ctx, { projectId, source: "manual", label: "Long ago" });
      await writeFileAtPath(ctx, grantedAccess(ownerId, projectId), "old.txt", `recent ${salt}`);
      // Enough new files that the recent version gets a full manifest of its own (none shared with the target).
      for (let i = 0; i < 40; i++) await writeFileAtPath(ctx, grantedAccess(ownerId, projectId), `new/${i}.txt`, `${i} ${salt}`);
      const { version: recent } = await takeVersion(ctx, { projectId, source: "manual", label: "Recent" });
      expect(recent.baseManifestId).not.toBe(target.baseManifestId);
      await ctx.sql`update blobs set last_used_at = now() - interval '1 day' where sha256 = ${sha256Hex(new TextEncoder().encode(`from long ago ${salt}`))}`;

      // As the restore reads the version's first content, retention deletes that version and sweeps.
      let swept = -1;
      const racing: ServiceContext = {
        ...ctx,
        store: {
          ...base,
          kind: base.kind,
          async get(key) {
            if (key.startsWith("blobs/") && swept === -1) {
              await ctx.sql`delete from versions where id = ${target.id}`;
              await ctx.sql`delete from manifests where id = ${target.baseManifestId}`;
              swept = await sweepBlobs(ctx, 60);
            }
            return base.get(key);
          },
        },
      };
      await restoreVersion(racing, grantedAccess(ownerId, projectId), target.id);
      expect(swept).not.toBe(-1); // the sweep ran mid-restore
      expect(new TextDecoder().decode((await filesOf(ctx, projectId))["old.txt"])).toBe(`from long ago ${salt}`);
      const latest = (await listVersions(ctx.sql, projectId, { limit: 1 }))[0]!;
      const restored = await findVersion(ctx.sql, projectId, latest.id);
      expect(await ctx.store.get(blobKey(restored!.manifest["old.txt"]![0]))).not.toBeNull();
    });

    test("another user's version, or another project's, is not found", async () => {
      const ctx = await serviceContext(await openStore(kind));
      const alice = await newProject(ctx, "alice");
      const bob = await newProject(ctx, "bob");
      await writeFileAtPath(ctx, grantedAccess(alice.ownerId, alice.projectId), "a.txt", salt);
      const { version } = await takeVersion(ctx, { projectId: alice.projectId, source: "manual", label: "Alice's" });

      const attempts = [
        () => projectAccess(ctx, bob.ownerId, alice.projectId, "edit"),
        () => restoreVersion(ctx, grantedAccess(bob.ownerId, bob.projectId), version.id),
        () => restoreVersion(ctx, grantedAccess(alice.ownerId, alice.projectId), "not-a-uuid"),
      ];
      for (const attempt of attempts) {
        const error = await attempt().catch((e: unknown) => e);
        expect(error).toBeInstanceOf(AppError);
        expect((error as AppError).status).toBe(404);
      }
    });

    test("a restore during an agent run is refused with 409", async () => {
      const ctx = await serviceContext(await openStore(kind));
      const { ownerId, projectId } = await newProject(ctx);
      await writeFileAtPath(ctx, grantedAccess(ownerId, projectId), "a.txt", `one ${salt}`);
      const { version } = await takeVersion(ctx, { projectId, source: "manual", label: "One" });
      await writeFileAtPath(ctx, grantedAccess(ownerId, projectId), "a.txt", `two ${salt}`);
      await ctx.sql`insert into messages (id, project_id, role, content, status) values (${crypto.randomUUID()}, ${projectId}, 'assistant', '', 'running')`;

      const error = (await restoreVersion(ctx, grantedAccess(ownerId, projectId), version.id).catch((e: unknown) => e)) as AppError;
      expect(error.status).toBe(409);
      expect(error.message).toBe(RESTORE_DURING_RUN);
      expect(new TextDecoder().decode((await filesOf(ctx, projectId))["a.txt"])).toBe(`two ${salt}`);
    });

    test("a deleted project's versions are gone with it", async () => {
      const ctx = await serviceContext(await openStore(kind));
      const { ownerId, projectId } = await newProject(ctx);
      await writeFileAtPath(ctx, grantedAccess(ownerId, projectId), "a.txt", salt);
      const { version } = await takeVersion(ctx, { projectId, source: "manual", label: "Doomed" });
      await deleteProject(ctx, grantedAccess(ownerId, projectId));
      expect(await ctx.sql`select id from versions where id = ${version.id}`).toHaveLength(0);
      const error = (await restoreVersion(ctx, grantedAccess(ownerId, projectId), version.id).catch((e: unknown) => e)) as AppError;
      expect(error.status).toBe(404);
    });
  });
}
