/**
 * Pull: the branch's head merged three-way into the project's files (base = the last sync), written as a new
 * version; conflicts write nothing and are answered. The sandbox follows through the file service, and `app`
 * restarts when files changed.
 *
 * @example
 * const pull = createPull(ctx, createGitPlumbing(ctx));
 * const result = await pull(access); // { conflicts } or { upToDate, written, deleted, merged, … }
 */
import type { GitPullResult, SkippedGitFile } from "@shared/schemas/git";
import { blobKey } from "../../db/blobs";
import * as rows from "../../db/git-remotes";
import type { SyncedFiles } from "../../db/git-remotes";
import { latestVersion } from "../../db/versions";
import { AppError } from "../../lib/errors";
import type { ProjectAccess } from "../access";
import { deleteProjectFile, writeFileAtPath } from "../files";
import { getProject } from "../projects";
import { versionLabel } from "../versions/hooks";
import { forEachLimit, withProjectLock } from "../versions/project-lock";
import { captureManifest, takeVersionLocked } from "../versions/snapshot";
import { type PullPlan, planPull } from "./merge";
import type { GitContext, GitPlumbing } from "./plumbing";
import * as repo from "./repo";

/** How deep a pull fetches: the panel's "last commits" come from the cache. */
const RECENT_DEPTH = 10;

export function createPull(ctx: GitContext, p: GitPlumbing) {
  async function restartApp(access: ProjectAccess) {
    if (!ctx.sandboxes) return;
    try {
      const project = await getProject(ctx, access);
      if (project.sandboxId && project.workflowCommand) await ctx.sandboxes.runWorkflow(access);
    } catch (error) {
      ctx.logger.warn("app not restarted after a git pull", { projectId: access.projectId, error: String(error) });
    }
  }

  return async function pull(access: ProjectAccess, o = { duringRun: false }): Promise<GitPullResult | { conflicts: string[] }> {
    const row = await p.connectedRow(access);
    const result = await p.exclusive(row, o, () =>
      p.withCache(row.projectId, () =>
        p.withRemote(p.credentials(row), async (remote) => {
          const head = await repo.remoteHead(remote, row.branch);
          if (!head) throw new AppError(404, "not_found", `The branch "${row.branch}" does not exist on the remote.`);
          const none = { written: 0, deleted: 0, merged: [], skipped: [] as SkippedGitFile[], lfsPointers: [] as string[] };
          if (head === row.syncedCommit) return { upToDate: true, commit: head, ...none };
          const gitdir = await repo.openRepo(p.cacheDir(row.projectId));
          // A few commits deep, not one: the panel lists the last commits from this cache.
          await repo.fetchBranch(gitdir, remote, row.branch, RECENT_DEPTH);
          const theirs = await p.remoteFiles(gitdir, head, row.syncedFiles);
          const [commitInfo] = await repo.recentCommits(gitdir, head, 1);
          const base = new Map(Object.entries(row.syncedFiles).map(([path, [sha256]]) => [path, sha256]));
          const baseOid = new Map(Object.values(row.syncedFiles).map(([sha256, oid]) => [sha256, oid]));

          return withProjectLock(ctx.sql, row.projectId, async () => {
            const latest = await latestVersion(ctx.sql, row.projectId);
            const current = (await captureManifest(ctx, row.projectId, latest?.manifest)).files;
            const ours = new Map(current.map((f) => [f.path, f.sha256!]));
            const read = async (sha256: string) => {
              const held = theirs.bytesBySha.get(sha256) ?? (await ctx.store.get(blobKey(sha256)));
              if (held) return held;
              const oid = baseOid.get(sha256);
              if (oid) return repo.readBlob(gitdir, oid);
              throw new AppError(500, "internal", "A file of the last sync is missing from storage and the remote.");
            };
            const plan: PullPlan = await planPull({ base, ours, theirs: new Map([...theirs.files].map(([path, f]) => [path, f.sha256])), read });
            if (plan.conflicts.length > 0) return { conflicts: plan.conflicts };

            // The result must fit the project's limits before anything is written.
            const sizes = new Map(current.map((f) => [f.path, f.size]));
            for (const c of plan.changes) {
              if ("delete" in c) sizes.delete(c.path);
              else sizes.set(c.path, c.bytes.length);
            }
            const largest = plan.changes.reduce<{ path: string; size: number } | null>(
              (big, c) => ("bytes" in c && c.bytes.length > (big?.size ?? -1) ? { path: c.path, size: c.bytes.length } : big),
              null,
            );
            p.checkLimits(
              sizes.size,
              [...sizes.values()].reduce((a, b) => a + b, 0),
              largest,
            );

            const byPath = new Map(current.map((f) => [f.path, f]));
            let written = 0;
            let deleted = 0;
            for (const c of plan.changes.filter((c) => "delete" in c)) {
              const file = byPath.get(c.path);
              if (!file) continue;
              await deleteProjectFile(ctx, access, file.id, { expectedKey: file.storageKey }).catch((error) => {
                if (!(error instanceof AppError && error.status === 404)) throw error;
              });
              deleted++;
            }
            await forEachLimit(
              plan.changes.filter((c): c is { path: string; bytes: Uint8Array } => "bytes" in c),
              4,
              async (c) => {
                await writeFileAtPath(ctx, access, c.path, c.bytes, { expectedKey: byPath.get(c.path)?.storageKey ?? null });
                written++;
              },
            );
            const subject = commitInfo?.message.split("\n")[0] ?? "";
            const taken = await takeVersionLocked(ctx, {
              projectId: row.projectId,
              source: "manual",
              label: versionLabel(`Pulled ${head.slice(0, 7)}: ${subject}`),
            });
            const synced: SyncedFiles = Object.fromEntries([...theirs.files].map(([path, f]) => [path, [f.sha256, f.oid]]));
            await rows.recordSync(ctx.sql, row.projectId, { commit: head, files: synced, kind: "pull" });
            return {
              upToDate: false,
              commit: head,
              ...(taken.created ? { versionId: taken.version.id } : {}),
              written,
              deleted,
              merged: plan.merged,
              skipped: theirs.skipped,
              lfsPointers: theirs.lfsPointers,
            };
          });
        }),
      ),
    );
    if (!("conflicts" in result) && !result.upToDate && (result.written > 0 || result.deleted > 0)) await restartApp(access);
    return result;
  };
}
