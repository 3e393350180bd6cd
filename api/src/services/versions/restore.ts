/**
 * Restoring a version: the project's files become exactly that version's, and its database holds the
 * version's data again (data-state.ts; a version taken without its data leaves the data as it is). Every change goes through the
 * file service (delete, then write), naming the content it expects to replace, so the sandbox sync and the
 * browsers' file events follow as for any other edit. The files as they were are kept first as a 'restore'
 * version, and the result is one too; then the app restarts on them if it runs in a sandbox.
 * A save that lands during the restore is not lost: if the restore then replaces or removes that file, the
 * saved content is kept as a version of its own ("Saved during the restore"); if it lands after the
 * restore wrote the file, it stays, and the save's own user version records it.
 *
 * @example
 * const { version, written, deleted } = await restoreVersion(ctx, access, versionId);
 */
import type { RestoreResult } from "@shared/schemas/versions";
import * as blobs from "../../db/blobs";
import * as versions from "../../db/versions";
import type { Manifest, VersionWithManifest } from "../../db/versions";
import { AppError, conflict, notFound } from "../../lib/errors";
import { isUuid, type ServiceContext } from "../context";
import { deleteProjectFile, type Unexpected, writeFileAtPath } from "../files";
import type { ProjectAccess } from "../access";
import { getProject } from "../projects";
import { versionLabel } from "./hooks";
import { forEachLimit, withProjectLock } from "./project-lock";
import { restoreData } from "./data-state";
import { captureManifest, DEFAULT_MODE, type ProjectState, recordVersion, takeVersionLocked } from "./snapshot";

export const SAVED_DURING_RESTORE = "Saved during the restore";
export const RESTORE_DURING_RUN = "The agent is working on this project. Wait for it to finish, or stop it, before restoring a version.";

/** The sandbox service, which restarts the app on the restored files; absent where no app runs (tests, scripts). */
export type RestoreContext = ServiceContext & { sandboxes?: { runWorkflow(access: ProjectAccess): Promise<unknown> } };

export async function restoreVersion(ctx: RestoreContext, access: ProjectAccess, versionId: string): Promise<RestoreResult> {
  const project = await getProject(ctx, access);
  const target = isUuid(versionId) ? await versions.findVersion(ctx.sql, project.id, versionId) : null;
  if (!target) throw notFound("Version");
  if (await versions.hasRunningAgent(ctx.sql, project.id)) throw conflict(RESTORE_DURING_RUN);

  const result = await withProjectLock(ctx.sql, project.id, async () => {
    // An old version may be deleted by retention while it is restored: marking its contents in use keeps
    // the sweep off them until the restored files are a version of their own.
    const missing = await blobs.touchBlobs(
      ctx.sql,
      Object.values(target.manifest).map(([sha256, size]) => ({ sha256, size })),
    );
    if (missing.size > 0) throw new AppError(500, "internal", `${missing.size} of this version's files are missing from storage; nothing was restored.`);
    const before = await takeVersionLocked(ctx, { projectId: project.id, source: "restore", label: versionLabel(`Before restoring "${target.label}"`) });
    // The data first: it is put back in one transaction, so if it fails nothing at all has changed.
    const data = await restoreData(ctx, project.id, target.dataState, before.data);
    const current = new Map(before.files.map((f) => [f.path, f]));
    const removals = before.files.filter((f) => !(f.path in target.manifest));
    const writes = Object.entries(target.manifest).filter(([path, [sha256]]) => current.get(path)?.sha256 !== sha256);

    // Each change names the content it expects to replace or remove (as the "before" version found it): a
    // file saved by someone else since comes back as `unexpected`, and is kept in a version of its own.
    const expected = new Map(before.files.map((f) => [f.path, f.storageKey]));
    const overwritten: { path: string; sha256: string; size: number }[] = [];
    const keep = (path: string, unexpected: Unexpected) => unexpected && overwritten.push({ path, ...unexpected });

    // Removals first, so a project near its file-count limit can still take the restored files.
    await forEachLimit(removals, 4, async (file) => {
      try {
        keep(file.path, (await deleteProjectFile(ctx, access, file.id, { expectedKey: file.storageKey })).unexpected);
      } catch (error) {
        if (!(error instanceof AppError && error.status === 404)) throw error; // already gone is fine
      }
    });
    await forEachLimit(writes, 4, async ([path, [sha256]]) => {
      const bytes = await ctx.store.get(blobs.blobKey(sha256));
      if (!bytes) throw new AppError(500, "internal", `The content of ${path} in this version is missing from storage.`);
      const written = await writeFileAtPath(ctx, access, path, bytes, { expectedKey: expected.get(path) ?? null });
      keep(path, written.unexpected);
    });

    let parent = { ...before.version, manifest: before.manifest };
    if (overwritten.length > 0) parent = await keepOverwritten(ctx, project.id, parent, overwritten, before.data);
    const after = await captureManifest(ctx, project.id, target.manifest);
    const taken = await recordVersion(
      ctx,
      { projectId: project.id, source: "restore", label: versionLabel(`Restored "${target.label}"`) },
      { manifest: after.manifest, data: data === "not_included" ? before.data : target.dataState },
      parent,
    );
    return { version: versions.toSummary(taken.version), written: writes.length, deleted: removals.length, data };
  });

  await restartApp(ctx, access);
  return result;
}

/** The app restarts on the restored files, when it is running in a sandbox; a failure is logged, not thrown. */
async function restartApp(ctx: RestoreContext, access: ProjectAccess): Promise<void> {
  if (!ctx.sandboxes) return;
  try {
    const project = await getProject(ctx, access);
    if (project.sandboxId && project.workflowCommand) await ctx.sandboxes.runWorkflow(access);
  } catch (error) {
    ctx.logger.warn("app not restarted after restore", { projectId: access.projectId, error: String(error) });
  }
}

/**
 * Records the files as they were before the restore, with the content saved during it, as a version. The
 * file service kept that content as blobs (and touched them); one the sweep took in the meantime is left out.
 */
async function keepOverwritten(
  ctx: ServiceContext,
  projectId: string,
  before: VersionWithManifest,
  overwritten: { path: string; sha256: string; size: number }[],
  data: ProjectState["data"],
): Promise<VersionWithManifest> {
  const missing = await blobs.touchBlobs(ctx.sql, overwritten);
  if (missing.size > 0) ctx.logger.warn("content saved during a restore was swept before it was kept", { projectId, missing: missing.size });
  const manifest: Manifest = { ...before.manifest };
  for (const e of overwritten) if (!missing.has(e.sha256)) manifest[e.path] = [e.sha256, e.size, DEFAULT_MODE];
  const input = { projectId, source: "user" as const, label: SAVED_DURING_RESTORE, coalesce: false as const };
  const { version } = await recordVersion(ctx, input, { manifest, data }, before);
  return { ...version, manifest };
}
