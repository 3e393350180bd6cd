/**
 * Import by URL: a new project from a repository's branch, connected to it. The branch is fetched into a
 * staging cache first and the limits checked before any project exists; a failure part-way removes the
 * half-made project.
 *
 * @example
 * const importRepository = createImportRepository(ctx, createGitPlumbing(ctx));
 * const project = await importRepository(userId, { gitUrl: "https://gitea.example.com/me/app.git" });
 */
import { renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { ImportGit, SkippedGitFile } from "@shared/schemas/git";
import { MAX_PROJECT_NAME_LENGTH, type Project } from "@shared/schemas/project";
import * as rows from "../../db/git-remotes";
import type { SyncedFiles } from "../../db/git-remotes";
import { AppError, badRequest } from "../../lib/errors";
import { projectAccess } from "../access";
import { writeFileAtPath } from "../files";
import { createProject, deleteProject, getProject } from "../projects";
import { versionLabel } from "../versions/hooks";
import { forEachLimit } from "../versions/project-lock";
import { takeVersion } from "../versions/snapshot";
import { parseRemoteUrl } from "./remote-url";
import { type GitContext, type GitPlumbing, tokenContext } from "./plumbing";
import * as repo from "./repo";

export type ImportedRepository = Project & { git: { commit: string; skipped: SkippedGitFile[]; lfsPointers: string[] } };

export function createImportRepository(ctx: GitContext, p: GitPlumbing) {
  return async function importRepository(ownerId: string, input: ImportGit): Promise<ImportedRepository> {
    const parsed = parseRemoteUrl(input.gitUrl);
    const username = input.username?.trim() || parsed.username || null;
    const token = input.token?.trim() || parsed.password || null;
    const branch = input.branch ?? "main";
    const staging = join(p.cacheRoot, `import-${crypto.randomUUID()}.git`);
    try {
      const fetched = await p.withRemote({ url: parsed.url, username, token }, async (remote) => {
        const head = await repo.remoteHead(remote, branch);
        if (!head) throw new AppError(404, "not_found", `The branch "${branch}" does not exist on the remote.`);
        const gitdir = await repo.openRepo(staging);
        await repo.fetchBranch(gitdir, remote, branch, 1);
        const theirs = await p.remoteFiles(gitdir, head, {});
        return { head, gitdir, ...theirs };
      });
      const sizes = [...fetched.files].map(([path, f]) => ({ path, size: f.size }));
      const largest = sizes.reduce<{ path: string; size: number } | null>((big, f) => (f.size > (big?.size ?? -1) ? f : big), null);
      p.checkLimits(
        sizes.length,
        sizes.reduce((a, f) => a + f.size, 0),
        largest,
      );
      if (sizes.length === 0) throw badRequest(`The branch "${branch}" holds no files to import.`);

      const name = (
        input.name?.trim() ||
        decodeURIComponent(new URL(parsed.url).pathname.split("/").filter(Boolean).at(-1) ?? "").replace(/\.git$/, "") ||
        "Imported project"
      ).slice(0, MAX_PROJECT_NAME_LENGTH);
      const project = await createProject(ctx, ownerId, { name });
      const access = await projectAccess(ctx, ownerId, project.id, "own");
      try {
        await forEachLimit([...fetched.files], 4, async ([path, f]) => {
          await writeFileAtPath(ctx, access, path, fetched.bytesBySha.get(f.sha256)!);
        });
        await takeVersion(ctx, { projectId: project.id, source: "manual", label: versionLabel(`Imported from ${parsed.url} (${fetched.head.slice(0, 7)})`) });
        await rows.upsertGitRemote(ctx.sql, {
          projectId: project.id,
          url: parsed.url,
          branch,
          username,
          tokenSealed: token ? ctx.box.seal(token, tokenContext(project.id)) : null,
          autoPush: false,
        });
        const synced: SyncedFiles = Object.fromEntries([...fetched.files].map(([path, f]) => [path, [f.sha256, f.oid]]));
        await rows.recordSync(ctx.sql, project.id, { commit: fetched.head, files: synced, kind: "pull" });
      } catch (error) {
        await deleteProject(ctx, access).catch((e) => ctx.logger.warn("half-imported project not removed", { projectId: project.id, error: String(e) }));
        throw error;
      }
      // The fetched objects become the project's cache (a rename on the same disk).
      renameSync(staging, p.cacheDir(project.id));
      return { ...(await getProject(ctx, access)), git: { commit: fetched.head, skipped: fetched.skipped, lfsPointers: fetched.lfsPointers } };
    } finally {
      rmSync(staging, { recursive: true, force: true });
    }
  };
}
