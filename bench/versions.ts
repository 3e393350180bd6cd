/**
 * Versions on a generated 1,000-file project: the time to take a version after one file changed (median;
 * goal < 50 ms) and the storage it adds (goal: the changed file only), a restore of a version 100 files
 * away (goal < 2 s), and an import of a 1,000-file zip. Runs the services directly (no HTTP), on embedded
 * PGlite, or on PostgreSQL when TEST_DATABASE_URL is set; on a local object store in a temp folder.
 * With --sandbox, a local sandbox is attached to the project and the restore is timed until every
 * restored file reads back from inside it (needs what the local sandbox needs: root, bubblewrap).
 *
 *   bun bench/versions.ts [--files 1000] [--rounds 20] [--sandbox]
 */
import { grantedAccess, ownerFileAccess } from "../api/src/test/access";
import { chmodSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import JSZip from "jszip";
import * as fileRows from "../api/src/db/files";
import { upsertUser } from "../api/src/db/users";
import { createMemoryBus } from "../api/src/events/memory-bus";
import { loadConfig } from "../api/src/lib/config";
import { silentLogger } from "../api/src/lib/logger";
import type { ServiceContext } from "../api/src/services/context";
import { deleteProjectFile, writeFileAtPath } from "../api/src/services/files";
import { createProject } from "../api/src/services/projects";
import { diffManifests } from "../api/src/services/versions/diff";
import { importLimitsFrom, importProjectZip } from "../api/src/services/versions/import-zip";
import { restoreVersion } from "../api/src/services/versions/restore";
import { takeVersion } from "../api/src/services/versions/snapshot";
import { blobKey } from "../api/src/db/blobs";
import { findVersion } from "../api/src/db/versions";
import { createSandboxProvider } from "../api/src/sandbox/index";
import { createProjectSandboxes } from "../api/src/services/sandboxes";
import { createLocalStore } from "../api/src/storage/local";
import { testDb } from "../api/src/test/test-db";
import { atFraction, ms, sortedCopy, upperMedian as median } from "./support/stats";

const { values: opts } = parseArgs({
  options: { files: { type: "string", default: "1000" }, rounds: { type: "string", default: "20" }, sandbox: { type: "boolean", default: false } },
});
const FILES = Number(opts.files);
const ROUNDS = Number(opts.rounds);
const GOALS = { versionMs: 50, restoreMs: 2000 };

const dir = mkdtempSync(join(tmpdir(), "bench-versions-"));
// Sandbox users (other uids) must be able to reach their folders under it.
chmodSync(dir, 0o711);
const db = await testDb();
const config = loadConfig({ DATA_DIR: dir });
const ctx: ServiceContext = { sql: db.sql, store: createLocalStore(join(dir, "objects")), logger: silentLogger, events: createMemoryBus(), config };

/** Bytes and objects under the store's blobs/ folder. */
function blobUsage(): { bytes: number; objects: number } {
  let bytes = 0;
  let objects = 0;
  const walk = (path: string) => {
    for (const entry of readdirSync(path, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(join(path, entry.name));
      else {
        bytes += statSync(join(path, entry.name)).size;
        objects++;
      }
    }
  };
  try {
    walk(join(dir, "objects", "blobs"));
  } catch {
    // no blobs yet
  }
  return { bytes, objects };
}

const fileText = (i: number, variant: string) =>
  `// file ${i} (${variant})\nexport function f${i}(x: number): number {\n${"  x = x * 31 + 7;\n".repeat(20 + (i % 80))}  return x;\n}\n`;
const pathOf = (i: number) => `src/module-${Math.floor(i / 50)}/file-${i}.ts`;
const p95 = (xs: number[]) => atFraction(sortedCopy(xs), 0.95);

const ownerId = `bench-${crypto.randomUUID()}`;
await upsertUser(db.sql, { id: ownerId, email: "bench@example.com", displayName: "bench", photoURL: null });
const project = await createProject(ctx, ownerId, { name: "Bench" });

console.log(`versions bench: ${FILES} files, ${db.label}, local store`);
let started = performance.now();
for (let i = 0; i < FILES; i++) await writeFileAtPath(ctx, grantedAccess(ownerId, project.id), pathOf(i), fileText(i, "v0"));
console.log(`  wrote the project through the file service in ${ms(performance.now() - started)}`);

started = performance.now();
const { version: base } = await takeVersion(ctx, { projectId: project.id, source: "manual", label: "Base" });
console.log(`  first version (hashes and stores every file) in ${ms(performance.now() - started)}`);

// One file changed, then a version: ROUNDS times.
const times: number[] = [];
const added: { bytes: number; objects: number; fileBytes: number }[] = [];
for (let round = 0; round < ROUNDS; round++) {
  const i = (round * 37) % FILES;
  const content = fileText(i, `round ${round}`);
  await writeFileAtPath(ctx, grantedAccess(ownerId, project.id), pathOf(i), content);
  const before = blobUsage();
  const t0 = performance.now();
  await takeVersion(ctx, { projectId: project.id, source: "manual", label: `Round ${round}` });
  times.push(performance.now() - t0);
  const after = blobUsage();
  added.push({ bytes: after.bytes - before.bytes, objects: after.objects - before.objects, fileBytes: new TextEncoder().encode(content).length });
}
const exact = added.every((a) => a.objects === 1 && a.bytes === a.fileBytes);
const [row] = await db.sql<
  { bytes: number }[]
>`select pg_column_size(entries)::int as bytes from manifests m join versions v on v.base_manifest_id = m.id where v.id = ${base.id}`;
console.log(
  `  version after one file changed: median ${ms(median(times))}, p95 ${ms(p95(times))} (goal < ${GOALS.versionMs} ms) ${median(times) < GOALS.versionMs ? "OK" : "MISSED"}`,
);
console.log(
  `  storage added per version: ${added[0]!.objects} object, ${added[0]!.bytes} bytes for a ${added[0]!.fileBytes}-byte file; ` +
    `${exact ? "every round: the changed file only" : "NOT the changed file only in some round"}`,
);
const [rows] = await db.sql<{ versions: number; manifests: number; delta: number }[]>`
  select (select count(*)::int from versions where project_id = ${project.id}) as versions,
         (select count(*)::int from manifests where project_id = ${project.id}) as manifests,
         (select max(pg_column_size(delta))::int from versions where project_id = ${project.id}) as delta`;
console.log(
  `  database: ${rows!.versions} version rows sharing ${rows!.manifests} full manifest (${row!.bytes} bytes stored, compressed); largest delta ${rows!.delta} bytes`,
);

// A version 100 files away: 60 changed, 20 added, 20 deleted since `far`.
const { version: far } = await takeVersion(ctx, { projectId: project.id, source: "manual", label: "Far", force: true });
for (let i = 0; i < 60; i++) await writeFileAtPath(ctx, grantedAccess(ownerId, project.id), pathOf(i * 7), fileText(i * 7, "far away"));
for (let i = 0; i < 20; i++) await writeFileAtPath(ctx, grantedAccess(ownerId, project.id), `src/extra/new-${i}.ts`, fileText(i, "new"));
for (let i = 0; i < 20; i++) {
  const row = await fileRows.findFileByPath(db.sql, project.id, pathOf(FILES - 1 - i * 3));
  if (row) await deleteProjectFile(ctx, await ownerFileAccess(ctx, ownerId, row.id), row.id);
}
const { version: now } = await takeVersion(ctx, { projectId: project.id, source: "manual", label: "Now" });
const sandboxes = opts.sandbox ? createProjectSandboxes({ ...ctx, provider: createSandboxProvider(config, silentLogger), config }) : null;
const sandbox = sandboxes ? await sandboxes.ensure(grantedAccess(ownerId, project.id)) : null; // pushes every file (not timed)
const farManifest = (await findVersion(db.sql, project.id, far.id))!.manifest;
const change = diffManifests((await findVersion(db.sql, project.id, now.id))!.manifest, farManifest);
const toArrive = await Promise.all(
  [...change.added, ...change.changed, ...change.renamed.map((r) => ({ path: r.to }))].map(async ({ path }) => ({
    path,
    bytes: Buffer.from((await ctx.store.get(blobKey(farManifest[path]![0])))!),
  })),
);
const toGo = [...change.removed, ...change.renamed.map((r) => ({ path: r.from }))].map((e) => e.path);
started = performance.now();
const restored = await restoreVersion(ctx, grantedAccess(ownerId, project.id), far.id);
// With a sandbox: until every restored file reads back from inside it, and every removed one is gone.
while (sandbox) {
  const arrived = await Promise.all(toArrive.map(async (f) => Buffer.from((await sandbox.files.read(f.path)) ?? []).equals(f.bytes)));
  const gone = await Promise.all(toGo.map(async (path) => (await sandbox.files.read(path)) === null));
  if (!arrived.includes(false) && !gone.includes(false)) break;
  if (performance.now() - started > 30_000) throw new Error("the sandbox did not catch up within 30 s");
  await Bun.sleep(5);
}
const restoreMs = performance.now() - started;
console.log(
  `  restore of a version ${restored.written + restored.deleted} files away (${restored.written} written, ${restored.deleted} deleted): ` +
    `${ms(restoreMs)} (goal < ${GOALS.restoreMs} ms, ${sandbox ? "until the sandbox has every file" : "without a sandbox"}) ${restoreMs < GOALS.restoreMs ? "OK" : "MISSED"}`,
);
await sandboxes?.shutdown();

// Import of a 1,000-file zip.
const zip = new JSZip();
for (let i = 0; i < FILES; i++) zip.file(`bench-app/${pathOf(i)}`, fileText(i, "zip"));
const zipBytes = await zip.generateAsync({ type: "uint8array", compression: "DEFLATE" });
started = performance.now();
const imported = await importProjectZip(ctx, ownerId, { zip: zipBytes, fileName: "bench-app.zip" }, importLimitsFrom(config.limits));
const importMs = performance.now() - started;
const importedFiles = (await fileRows.listFiles(db.sql, imported.id)).length;
console.log(`  import of a ${FILES}-file zip (${(zipBytes.length / 1024).toFixed(0)} KB): ${importedFiles} files and the first version in ${ms(importMs)}`);

await db.close();
rmSync(dir, { recursive: true, force: true });
