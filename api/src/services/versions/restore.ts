/**
 * Restoring a version: the project's files become exactly that version's. Every change goes through the
 * file service (delete, then write), so the sandbox sync and the browsers' file events follow as for any
 * other edit. The files as they were are kept first as a 'restore' version, and the result is one too.
 * A save that lands during the restore is not lost: if the restore then replaces or removes that file, the
 * saved content is kept as a version of its own ("Saved during the restore"); if it lands after the
 * restore wrote the file, it stays, and the save's own user version records it.
 *
 * @example
 * const { version, written, deleted } = await restoreVersion(ctx, ownerId, projectId, versionId);
 */
import type { RestoreResult } from "@shared/schemas/versions";
import * as blobs from "../../db/blobs";
import * as versions from "../../db/versions";
import type { Manifest, VersionWithManifest } from "../../db/versions";
import { AppError, conflict, notFound } from "../../lib/errors";
import { isUuid, type ServiceContext } from "../context";
import { deleteProjectFile, writeFileAtPath } from "../files";
import { getOwnedProject } from "../projects";
import { versionLabel } from "./hooks";
import { forEachLimit, withProjectLock } from "./project-lock";
import { captureManifest, DEFAULT_MODE, hashingStore, recordVersion, sha256Hex, takeVersionLocked } from "./snapshot";

export const SAVED_DURING_RESTORE = "Saved during the restore";
export const RESTORE_DURING_RUN =
  "The agent is working on this project. Wait for it to finish, or stop it, before restoring a version.";

export type RestoreOptions = {
  /** Called after the files are restored (e.g. to restart the app); its failure is logged, not thrown. */
  afterRestore?: () => Promise<unknown>;
};

export async function restoreVersion(
  ctx: ServiceContext,
  ownerId: string,
  projectId: string,
  versionId: string,
  options: RestoreOptions = {},
): Promise<RestoreResult> {
  const project = await getOwnedProject(ctx, ownerId, projectId);
  const target = isUuid(versionId) ? await versions.findVersion(ctx.sql, project.id, versionId) : null;
  if (!target) throw notFound("Version");
  if (await versions.hasRunningAgent(ctx.sql, project.id)) throw conflict(RESTORE_DURING_RUN);

  const result = await withProjectLock(project.id, async () => {
    // An old version may be deleted by retention while it is restored: marking its contents in use keeps
    // the sweep off them until the restored files are a version of their own.
    const missing = await blobs.touchBlobs(ctx.sql, Object.values(target.manifest).map(([sha256, size]) => ({ sha256, size })));
    if (missing.size > 0) throw new AppError(500, "internal", `${missing.size} of this version's files are missing from storage; nothing was restored.`);
    const before = await takeVersionLocked(ctx, { projectId: project.id, source: "restore", label: versionLabel(`Before restoring "${target.label}"`) });
    const current = new Map(before.files.map((f) => [f.path, f]));
    const removals = before.files.filter((f) => !(f.path in target.manifest));
    const writes = Object.entries(target.manifest).filter(([path, [sha256]]) => current.get(path)?.sha256 !== sha256);

    const hashing = hashingStore(ctx.store);
    const expected = new Set(before.files.map((f) => f.storageKey));
    const overwritten: { path: string; bytes: Uint8Array }[] = [];
    // The file service deletes the content object it replaces or removes: one we did not capture was
    // written by someone else since, so its bytes are kept before they go.
    const writerFor = (path: string): ServiceContext => ({
      ...ctx,
      store: {
        ...hashing.store,
        async delete(key) {
          if (!expected.has(key)) {
            const bytes = await ctx.store.get(key);
            if (bytes) overwritten.push({ path, bytes });
          }
          await ctx.store.delete(key);
        },
      },
    });

    // Removals first, so a project near its file-count limit can still take the restored files.
    await forEachLimit(removals, 4, async (file) => {
      await deleteProjectFile(writerFor(file.path), ownerId, file.id).catch((error) => {
        if (!(error instanceof AppError && error.status === 404)) throw error; // already gone is fine
      });
    });
    await forEachLimit(writes, 4, async ([path, [sha256]]) => {
      const bytes = await ctx.store.get(blobs.blobKey(sha256));
      if (!bytes) throw new AppError(500, "internal", `The content of ${path} in this version is missing from storage.`);
      await writeFileAtPath(writerFor(path), ownerId, project.id, path, bytes);
    });
    await blobs.recordFileHashes(ctx.sql, project.id, hashing.written);

    let parent = { ...before.version, manifest: before.manifest };
    if (overwritten.length > 0) parent = await keepOverwritten(ctx, project.id, parent, overwritten);
    const after = await captureManifest(ctx, project.id, target.manifest);
    const taken = await recordVersion(
      ctx,
      { projectId: project.id, source: "restore", label: versionLabel(`Restored "${target.label}"`) },
      after.manifest,
      parent,
    );
    return { version: versions.toSummary(taken.version), written: writes.length, deleted: removals.length };
  });

  if (options.afterRestore) {
    await options.afterRestore().catch((error) => ctx.logger.warn("app not restarted after restore", { projectId, error: String(error) }));
  }
  return result;
}

/** Records the files as they were before the restore, with the content saved during it, as a version. */
async function keepOverwritten(
  ctx: ServiceContext,
  projectId: string,
  before: VersionWithManifest,
  overwritten: { path: string; bytes: Uint8Array }[],
): Promise<VersionWithManifest> {
  const entries = overwritten.map(({ path, bytes }) => ({ path, bytes, sha256: sha256Hex(bytes), size: bytes.length }));
  const missing = await blobs.touchBlobs(ctx.sql, entries);
  const stored = entries.filter((e) => missing.has(e.sha256));
  await forEachLimit(stored, 4, (e) => ctx.store.put(blobs.blobKey(e.sha256), e.bytes));
  await blobs.markStored(ctx.sql, stored.map((e) => e.sha256));
  const manifest: Manifest = { ...before.manifest };
  for (const e of entries) manifest[e.path] = [e.sha256, e.size, DEFAULT_MODE];
  const input = { projectId, source: "user" as const, label: SAVED_DURING_RESTORE, coalesce: false as const };
  const { version } = await recordVersion(ctx, input, manifest, before);
  return { ...version, manifest };
}
