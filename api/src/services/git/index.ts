/**
 * Two-way git with any HTTPS smart-HTTP remote: connect (checked with a ref listing), status, push (the
 * project's files as one commit on the branch), pull (the branch's head merged three-way into the files, as a
 * new version; the sandbox follows through the file service and `app` restarts), import by URL, and the
 * automatic push after an agent run. Callers pass a ProjectAccess, so the role was checked first.
 *
 * Where things live: the connection, the sealed token and the sync state (the commit last matched and its
 * files, path → sha256 and blob oid) are rows every instance shares; git objects are a per-instance cache in
 * DATA_DIR/git-cache (repo.ts), rebuilt from the remote with a depth-1 fetch whenever it lacks what it needs.
 * So any instance can serve any project, and losing the cache costs one fetch. A git operation claims the
 * project in its row (busy_until): a second one on any instance answers 409.
 *
 * The token is sealed under SECRETS_KEY (bound to the project), opened only to build the Authorization
 * header of a request, and is never answered, logged, written to the cache, given to the sandbox or the model.
 *
 * @example
 * const git = createGitService({ ...ctx, box, sandboxes });
 * await git.connect(access, { url: "https://gitea.example.com/me/app.git", token: "…" });
 * await git.push(access, { message: "First version" });
 */
import { readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import type { ConnectGit, GitStatus } from "@shared/schemas/git";
import * as rows from "../../db/git-remotes";
import { notFound } from "../../lib/errors";
import type { ProjectAccess } from "../access";
import { createImportRepository } from "./import-repository";
import { createGitPlumbing, type GitContext, tokenContext } from "./plumbing";
import { createPull } from "./pull";
import { createPush } from "./push";
import { parseRemoteUrl } from "./remote-url";
import * as repo from "./repo";
import { createStatus } from "./status";

export type { GitContext } from "./plumbing";
export type GitService = ReturnType<typeof createGitService>;

/** An import's staging cache older than this was left by a stopped instance, not an import under way. */
const STALE_STAGING_MS = 60 * 60_000;

export function createGitService(ctx: GitContext) {
  const p = createGitPlumbing(ctx);
  const status = createStatus(ctx, p);
  const push = createPush(ctx, p);

  return {
    status,
    push,
    pull: createPull(ctx, p),
    importRepository: createImportRepository(ctx, p),

    /** Connects (or reconnects) after a ref listing shows the URL answers and the credentials are accepted. */
    async connect(access: ProjectAccess, body: ConnectGit): Promise<GitStatus> {
      const projectId = access.projectId;
      const parsed = parseRemoteUrl(body.url);
      const existing = await rows.findGitRemote(ctx.sql, projectId);
      const username = body.username?.trim() || parsed.username || null;
      // No token given: keep the stored one when reconnecting the same remote (changing only auto-push, say).
      const token =
        body.token !== undefined ? body.token.trim() || null : (parsed.password ?? (existing?.url === parsed.url ? p.credentials(existing).token : null));
      const branch = body.branch ?? existing?.branch ?? "main";
      await p.withRemote({ url: parsed.url, username, token }, (remote) => repo.remoteHead(remote, branch));
      await rows.upsertGitRemote(ctx.sql, {
        projectId,
        url: parsed.url,
        branch,
        username,
        tokenSealed: token ? ctx.box.seal(token, tokenContext(projectId)) : null,
        autoPush: body.autoPush ?? existing?.autoPush ?? false,
      });
      return (await status(access))!;
    },

    async disconnect(access: ProjectAccess): Promise<void> {
      if (!(await rows.deleteGitRemote(ctx.sql, access.projectId))) throw notFound("Git remote");
      rmSync(p.cacheDir(access.projectId), { recursive: true, force: true });
    },

    /** A deleted project's objects leave this instance's cache at once (other instances' go at their next start). */
    forgetProject(projectId: string): void {
      rmSync(p.cacheDir(projectId), { recursive: true, force: true });
    },

    /**
     * At start-up: removes the caches of projects that are gone or no longer connected (deleted through another
     * instance, or while this one was down) and staging folders an interrupted import left behind.
     */
    async sweepCaches(now = Date.now()): Promise<number> {
      let names: string[];
      try {
        names = readdirSync(p.cacheRoot);
      } catch {
        return 0;
      }
      const ids = names.filter((n) => n.endsWith(".git") && !n.startsWith("import-")).map((n) => n.slice(0, -4));
      const kept = await rows.connectedProjectIds(ctx.sql, ids);
      const stale = names.filter((n) =>
        n.startsWith("import-") ? now - statSync(join(p.cacheRoot, n)).mtimeMs > STALE_STAGING_MS : n.endsWith(".git") && !kept.has(n.slice(0, -4)),
      );
      for (const n of stale) rmSync(join(p.cacheRoot, n), { recursive: true, force: true });
      return stale.length;
    },

    /** After an agent run that changed files: the automatic push, when on. A warning for the chat when it failed. */
    async afterRun(access: ProjectAccess): Promise<string | null> {
      const projectId = access.projectId;
      const row = await rows.findGitRemote(ctx.sql, projectId).catch(() => null);
      if (!row?.autoPush) return null;
      try {
        await push(access, {}, { duringRun: true });
        return null;
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        ctx.logger.warn("automatic git push failed", { projectId, reason });
        return `The automatic push to ${row.url} failed: ${reason}`;
      }
    },
  };
}
