/**
 * Restoring a version: the project's files become exactly that version's. Every change goes through the
 * file service (delete, then write), so the sandbox sync and the browsers' file events follow as for any
 * other edit. The files as they were are kept first as a 'restore' version, and the result is one too.
 * A save that lands during the restore is not lost: either the restore overwrites it after the save's own
 * user version recorded it, or it lands after and becomes the next version.
 *
 * @example
 * const { version, written, deleted } = await restoreVersion(ctx, ownerId, projectId, versionId);
 */
import type { RestoreResult } from "@shared/schemas/versions";
import * as blobs from "../../db/blobs";
import * as versions from "../../db/versions";
import { AppError, conflict, notFound } from "../../lib/errors";
import { isUuid, type ServiceContext } from "../context";
import { deleteProjectFile, writeFileAtPath } from "../files";
import { getOwnedProject } from "../projects";
import { versionLabel } from "./hooks";
import { forEachLimit, withProjectLock } from "./project-lock";
import { captureManifest, hashingStore, recordVersion, takeVersionLocked } from "./snapshot";

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
    const before = await takeVersionLocked(ctx, { projectId: project.id, source: "restore", label: versionLabel(`Before restoring "${target.label}"`) });
    const current = new Map(before.files.map((f) => [f.path, f]));
    const removals = before.files.filter((f) => !(f.path in target.manifest));
    const writes = Object.entries(target.manifest).filter(([path, [sha256]]) => current.get(path)?.sha256 !== sha256);

    // Removals first, so a project near its file-count limit can still take the restored files.
    await forEachLimit(removals, 4, async (file) => {
      await deleteProjectFile(ctx, ownerId, file.id).catch((error) => {
        if (!(error instanceof AppError && error.status === 404)) throw error; // already gone is fine
      });
    });
    const hashing = hashingStore(ctx.store);
    const writer: ServiceContext = { ...ctx, store: hashing.store };
    await forEachLimit(writes, 4, async ([path, [sha256]]) => {
      const bytes = await ctx.store.get(blobs.blobKey(sha256));
      if (!bytes) throw new AppError(500, "internal", `The content of ${path} in this version is missing from storage.`);
      await writeFileAtPath(writer, ownerId, project.id, path, bytes);
    });
    await blobs.recordFileHashes(ctx.sql, project.id, hashing.written);

    const after = await captureManifest(ctx, project.id, target.manifest);
    const taken = await recordVersion(
      ctx,
      { projectId: project.id, source: "restore", label: versionLabel(`Restored "${target.label}"`) },
      after.manifest,
      { ...before.version, manifest: before.manifest },
    );
    return { version: versions.toSummary(taken.version), written: writes.length, deleted: removals.length };
  });

  if (options.afterRestore) {
    await options.afterRestore().catch((error) => ctx.logger.warn("app not restarted after restore", { projectId, error: String(error) }));
  }
  return result;
}
