/**
 * Status: how the project's files stand against the remote branch (ahead, behind, diverged, unreachable) and
 * its last commits. A remote that cannot be reached is a status, not an error, so the panel can say so.
 *
 * @example
 * const status = createStatus(ctx, createGitPlumbing(ctx));
 * (await status(access))?.status; // "up_to_date" | "ahead" | "behind" | "diverged" | "unreachable"
 */
import type { GitStatus } from "@shared/schemas/git";
import * as rows from "../../db/git-remotes";
import type { ProjectAccess } from "../access";
import type { GitContext, GitPlumbing } from "./plumbing";
import * as repo from "./repo";

/** Commits counted behind, at most (a status fetches no deeper). */
const BEHIND_DEPTH = 50;

export function createStatus(ctx: GitContext, p: GitPlumbing) {
  return async function status(access: ProjectAccess): Promise<GitStatus | null> {
    const row = await rows.findGitRemote(ctx.sql, access.projectId);
    if (!row) return null;
    const files = await p.currentFiles(row.projectId);
    const here = new Map(files.map((f) => [f.path, f.sha256]));
    const paths = new Set([...here.keys(), ...Object.keys(row.syncedFiles)]);
    const ahead = row.syncedCommit === null ? here.size : [...paths].filter((path) => here.get(path) !== row.syncedFiles[path]?.[0]).length;
    const out: GitStatus = {
      url: row.url,
      branch: row.branch,
      username: row.username,
      hasToken: row.tokenSealed !== null,
      autoPush: row.autoPush,
      lastPushedCommit: row.lastPushedCommit,
      lastPulledCommit: row.lastPulledCommit,
      ahead,
      behind: 0,
      status: "up_to_date",
      commits: [],
    };
    try {
      await p.withCache(row.projectId, () =>
        p.withRemote(p.credentials(row), async (remote) => {
          const head = await repo.remoteHead(remote, row.branch);
          if (!head) return;
          const gitdir = await repo.openRepo(p.cacheDir(row.projectId));
          if (head !== row.syncedCommit || !(await repo.hasObject(gitdir, head))) {
            await repo.fetchBranch(gitdir, remote, row.branch, head === row.syncedCommit ? 10 : BEHIND_DEPTH);
          }
          const log = await repo.recentCommits(gitdir, head, BEHIND_DEPTH);
          const at = log.findIndex((c) => c.oid === row.syncedCommit);
          out.behind = at === -1 ? log.length : at;
          out.commits = log.slice(0, 10);
        }),
      );
    } catch (error) {
      out.status = "unreachable";
      out.error = error instanceof Error ? error.message : String(error);
      return out;
    }
    out.status = out.ahead > 0 && out.behind > 0 ? "diverged" : out.ahead > 0 ? "ahead" : out.behind > 0 ? "behind" : "up_to_date";
    return out;
  };
}
