/**
 * Push: the project's files as one commit on the branch, as the member who pushes (or whose run pushed).
 * Unchanged files keep the blob oids of the last sync, so a one-file change writes one blob.
 *
 * @example
 * const push = createPush(ctx, createGitPlumbing(ctx));
 * await push(access, { message: "First version" });
 */
import type { GitPushResult } from "@shared/schemas/git";
import * as rows from "../../db/git-remotes";
import type { GitRemoteRow, SyncedFiles } from "../../db/git-remotes";
import { conflict } from "../../lib/errors";
import { isIgnoredPath } from "../../sandbox/ignored-paths";
import type { ProjectAccess } from "../access";
import { forEachLimit } from "../versions/project-lock";
import type { GitContext, GitPlumbing } from "./plumbing";
import * as repo from "./repo";

export const PULL_FIRST = "The remote has changes: pull first.";

export function createPush(ctx: GitContext, p: GitPlumbing) {
  async function authorOf(userId: string): Promise<repo.Author> {
    const who = await rows.userIdentity(ctx.sql, userId);
    return { name: who.name || who.email?.split("@")[0] || "App user", email: who.email || `${userId}@users.noreply.invalid` };
  }

  async function defaultMessage(row: GitRemoteRow): Promise<string> {
    // "Before: …" versions record the files before a run or restore, not a change of their own.
    const labels = [...new Set(await rows.versionLabelsSince(ctx.sql, row.projectId, row.lastPushedAt, 50))].filter((l) => !/^Before[: ]/.test(l));
    if (labels.length === 0) return "Update from the app builder";
    if (labels.length === 1) return labels[0]!;
    return `${labels.at(-1)} (and ${labels.length - 1} earlier changes)\n\n${labels.map((l) => `- ${l}`).join("\n")}`;
  }

  return async function push(access: ProjectAccess, body: { message?: string; force?: boolean }, o = { duringRun: false }): Promise<GitPushResult> {
    const row = await p.connectedRow(access);
    return p.exclusive(row, o, () =>
      p.withCache(row.projectId, () =>
        p.withRemote(p.credentials(row), async (remote) => {
          const gitdir = await repo.openRepo(p.cacheDir(row.projectId));
          // Usually the remote is where we left it: the push's own ref listing checks that (onPrePush), sparing a
          // round trip. Otherwise (never synced, a cache without the commit, force) the branch is asked first.
          const assumed = !body.force && row.syncedCommit !== null && (await repo.hasObject(gitdir, row.syncedCommit));
          const head = assumed ? row.syncedCommit : await repo.remoteHead(remote, row.branch);
          if (head && head !== row.syncedCommit && !body.force) throw conflict(PULL_FIRST);
          if (head && !(await repo.hasObject(gitdir, head))) await repo.fetchBranch(gitdir, remote, row.branch, 1);

          // What the sandbox sync ignores (node_modules, build output, caches) is never committed.
          const files = (await p.currentFiles(row.projectId)).filter((f) => !isIgnoredPath(f.path));
          // Unchanged files keep the blob oid of the synced commit, whose objects the cache now holds.
          const known = head !== null && head === row.syncedCommit ? row.syncedFiles : {};
          const oids = new Map<string, string>();
          const synced: SyncedFiles = {};
          await forEachLimit(files, 8, async (f) => {
            const prior = known[f.path];
            const oid = prior && prior[0] === f.sha256 ? prior[1] : await repo.writeBlob(gitdir, await p.readStored(f.sha256!));
            oids.set(f.path, oid);
            synced[f.path] = [f.sha256!, oid];
          });
          const tree = await repo.writeFiles(gitdir, new Map([...oids].sort(([a], [b]) => (a < b ? -1 : 1))));
          if (head && tree === (await repo.treeOf(gitdir, head))) {
            await rows.recordSync(ctx.sql, row.projectId, { commit: head, files: synced, kind: "push" });
            return { pushed: false, commit: head, files: files.length };
          }
          // Over a remote that moved on (force), the commit goes on top of its head: our files win, its history stays.
          const message = body.message?.trim() || (await defaultMessage(row));
          const commit = await repo.writeCommit(gitdir, { tree, parent: head, author: await authorOf(access.userId), message });
          const pushed = await repo.pushCommit(gitdir, remote, row.branch, commit, head);
          if (pushed.moved) throw conflict(PULL_FIRST);
          if (!pushed.ok) throw conflict(`The remote refused the push: ${pushed.error ?? "no reason given"}.`);
          await rows.recordSync(ctx.sql, row.projectId, { commit, files: synced, kind: "push" });
          return { pushed: true, commit, files: files.length };
        }),
      ),
    );
  };
}
