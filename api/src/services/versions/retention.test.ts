import { afterAll, describe, expect, test } from "bun:test";
import { grantedAccess } from "../../test/access";
import { blobKey } from "../../db/blobs";
import { findVersion, listVersions, pruneVersions } from "../../db/versions";
import { ConfigError, loadConfig } from "../../lib/config";
import type { ServiceContext } from "../context";
import { writeFileAtPath } from "../files";
import { runRetention, sweepBlobs } from "./retention";
import { sha256Hex, takeVersion } from "./snapshot";
import { dbLabel, newProject, openStore, serviceContext, STORE_KINDS, stopStores } from "../../test/versions-support";

afterAll(() => stopStores());

const hashOf = (text: string) => sha256Hex(new TextEncoder().encode(text));

/** Every blob any version of the project names, with whether its object is there and holds those bytes. */
async function referencedBlobsIntact(ctx: ServiceContext, projectId: string): Promise<{ total: number; broken: string[] }> {
  const hashes = new Set<string>();
  for (const { id } of await listVersions(ctx.sql, projectId, { limit: 1000 })) {
    const version = await findVersion(ctx.sql, projectId, id);
    for (const [sha256] of Object.values(version!.manifest)) hashes.add(sha256);
  }
  const rows = [...hashes].map((sha256) => ({ sha256 }));
  const broken: string[] = [];
  for (const { sha256 } of rows) {
    const bytes = await ctx.store.get(blobKey(sha256));
    if (!bytes || sha256Hex(bytes) !== sha256) broken.push(sha256);
  }
  return { total: rows.length, broken };
}

/** Stores `texts` as blobs no version or file names any more, last used a day ago. */
async function unreferencedBlobs(ctx: ServiceContext, texts: string[]): Promise<void> {
  const { ownerId, projectId } = await newProject(ctx, "scratch");
  for (const [i, text] of texts.entries()) await writeFileAtPath(ctx, grantedAccess(ownerId, projectId), `f${i}.txt`, text);
  await takeVersion(ctx, { projectId, source: "manual", label: "Scratch" });
  await ctx.sql`delete from versions where project_id = ${projectId}`;
  await ctx.sql`delete from manifests where project_id = ${projectId}`;
  await ctx.sql`delete from files where project_id = ${projectId}`;
  await ctx.sql`update blobs set last_used_at = now() - interval '1 day' where sha256 = any(${texts.map(hashOf)}::text[])`;
}

describe(`version retention (${dbLabel()})`, () => {
  test("VERSIONS_KEEP_DAYS defaults to 30 and must be a positive whole number", () => {
    expect(loadConfig({}).versionsKeepDays).toBe(30);
    expect(loadConfig({ VERSIONS_KEEP_DAYS: "7" }).versionsKeepDays).toBe(7);
    expect(() => loadConfig({ VERSIONS_KEEP_DAYS: "0" })).toThrow(ConfigError);
    expect(() => loadConfig({ VERSIONS_KEEP_DAYS: "a week" })).toThrow("VERSIONS_KEEP_DAYS");
  });

  test("versions past the keep period go, but each project's newest 20 stay", async () => {
    const ctx = await serviceContext(await openStore("local"));
    const { ownerId, projectId } = await newProject(ctx);
    for (let i = 0; i < 25; i++) {
      await writeFileAtPath(ctx, grantedAccess(ownerId, projectId), "counter.txt", String(i));
      await takeVersion(ctx, { projectId, source: "manual", label: `v${i}` });
    }
    const young = await newProject(ctx);
    await takeVersion(ctx, { projectId: young.projectId, source: "manual", label: "recent", force: true });
    await ctx.sql`update versions set created_at = created_at - interval '40 days' where project_id = ${projectId}`;

    expect(await pruneVersions(ctx.sql, 30, 20)).toBeGreaterThanOrEqual(5);
    const left = await listVersions(ctx.sql, projectId, { limit: 50 });
    expect(left.map((v) => v.label)).toEqual(Array.from({ length: 20 }, (_, i) => `v${24 - i}`));
    expect(await listVersions(ctx.sql, young.projectId, { limit: 50 })).toHaveLength(1);
    // Full manifests no kept version uses are gone; the kept versions still read whole.
    const [orphans] = await ctx.sql<{ n: number }[]>`
      select count(*)::int as n from manifests m where not exists (select 1 from versions v where v.base_manifest_id = m.id)`;
    expect(orphans!.n).toBe(0);
    const oldest = await findVersion(ctx.sql, projectId, left.at(-1)!.id);
    expect(Object.keys(oldest!.manifest)).toEqual(["counter.txt"]);
  });
});

for (const kind of STORE_KINDS) {
  describe(`blob sweep (${dbLabel()}, ${kind} store)`, () => {
    test("deletes only blobs no version names and nobody used within the grace period", async () => {
      const ctx = await serviceContext(await openStore(kind));
      const salt = crypto.randomUUID();
      const { ownerId, projectId } = await newProject(ctx);
      await writeFileAtPath(ctx, grantedAccess(ownerId, projectId), "kept.txt", `kept ${salt}`);
      await takeVersion(ctx, { projectId, source: "manual", label: "Kept" });
      // A file's content is a blob too: named by no version, unused for a day, it stays while the file names it.
      await writeFileAtPath(ctx, grantedAccess(ownerId, projectId), "unversioned.txt", `unversioned ${salt}`);
      await ctx.sql`update blobs set last_used_at = now() - interval '1 day' where sha256 = ${hashOf(`unversioned ${salt}`)}`;
      await unreferencedBlobs(ctx, [`old ${salt}`]);
      // Unreferenced but just written: inside the grace period, so a writer may be about to name it.
      await unreferencedBlobs(ctx, [`fresh ${salt}`]);
      await ctx.sql`update blobs set last_used_at = now() where sha256 = ${hashOf(`fresh ${salt}`)}`;
      await ctx.sql`update blobs set last_used_at = now() - interval '1 day' where sha256 = ${hashOf(`kept ${salt}`)}`;
      const fileKeys = await ctx.store.list(`projects/${projectId}/`);

      await runRetention(ctx, { keepDays: 30, graceSeconds: 60 });
      expect(await ctx.store.get(blobKey(hashOf(`old ${salt}`)))).toBeNull();
      expect(await ctx.sql`select 1 from blobs where sha256 = ${hashOf(`old ${salt}`)}`).toHaveLength(0);
      expect(await ctx.store.get(blobKey(hashOf(`fresh ${salt}`)))).not.toBeNull();
      expect(await referencedBlobsIntact(ctx, projectId)).toEqual({ total: 1, broken: [] });
      expect(await ctx.store.get(blobKey(hashOf(`unversioned ${salt}`)))).toEqual(new TextEncoder().encode(`unversioned ${salt}`));
      expect(await ctx.store.list(`projects/${projectId}/`)).toEqual(fileKeys);
    });

    test("a writer storing the same bytes while the sweep deletes them loses nothing", async () => {
      const ctx = await serviceContext(await openStore(kind));
      const salt = crypto.randomUUID();
      const texts = Array.from({ length: 40 }, (_, i) => `content ${i} ${salt}`);
      await unreferencedBlobs(ctx, texts);
      const { ownerId, projectId } = await newProject(ctx, "writer");

      // The writer brings back every other text, one version each, while the sweep works in small batches.
      const writer = (async () => {
        for (let i = 0; i < texts.length; i += 2) {
          await writeFileAtPath(ctx, grantedAccess(ownerId, projectId), `f${i}.txt`, texts[i]!);
          await takeVersion(ctx, { projectId, source: "manual", label: `w${i}` });
        }
      })();
      const sweeps = (async () => {
        let deleted = 0;
        for (let round = 0; round < 20; round++) deleted += await sweepBlobs(ctx, 60, 3);
        return deleted;
      })();
      const [, deleted] = await Promise.all([writer, sweeps]);
      await sweepBlobs(ctx, 60, 100);

      expect(await referencedBlobsIntact(ctx, projectId)).toEqual({ total: 20, broken: [] });
      // The texts nobody brought back are gone, objects and rows.
      for (let i = 1; i < texts.length; i += 2) expect(await ctx.store.get(blobKey(hashOf(texts[i]!)))).toBeNull();
      const rows = await ctx.sql`select 1 from blobs where sha256 = any(${texts.filter((_, i) => i % 2 === 1).map(hashOf)}::text[])`;
      expect(rows).toHaveLength(0);
      expect(deleted).toBeGreaterThanOrEqual(20);
    });

    test("a writer reaching a blob while the sweep deletes it waits for the sweep, then stores it again", async () => {
      const base = await openStore(kind);
      const ctx = await serviceContext(base);
      const text = `contended ${crypto.randomUUID()}`;
      await unreferencedBlobs(ctx, [text]);
      const { ownerId, projectId } = await newProject(ctx, "writer");

      // The sweep's store stops inside its delete, while the sweep holds the blob's row lock.
      let reached!: () => void;
      const deleting = new Promise<void>((resolve) => (reached = resolve));
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      const sweepStore = {
        ...base,
        kind: base.kind,
        get: (key: string) => base.get(key),
        put: (key: string, body: Uint8Array) => base.put(key, body),
        list: (prefix: string) => base.list(prefix),
        deletePrefix: (prefix: string) => base.deletePrefix(prefix),
        ping: () => base.ping(),
        async delete(key: string) {
          if (key === blobKey(hashOf(text))) {
            reached();
            await gate;
          }
          await base.delete(key);
        },
      };
      const sweep = sweepBlobs({ ...ctx, store: sweepStore }, 60, 1000);
      await deleting;
      // A save of the same bytes: the file service touches the blob, and so waits on the sweep's row lock.
      let versionTaken = false;
      const writer = writeFileAtPath(ctx, grantedAccess(ownerId, projectId), "f.txt", text)
        .then(() => takeVersion(ctx, { projectId, source: "manual", label: "Mid-sweep" }))
        .then(() => (versionTaken = true));
      await Bun.sleep(200);
      expect(versionTaken).toBe(false);
      release();
      await Promise.all([sweep, writer]);

      expect(await ctx.store.get(blobKey(hashOf(text)))).toEqual(new TextEncoder().encode(text));
      expect(await referencedBlobsIntact(ctx, projectId)).toEqual({ total: 1, broken: [] });
      expect([...(await ctx.sql`select stored from blobs where sha256 = ${hashOf(text)}`)]).toEqual([{ stored: true }]);
    });
  });
}
