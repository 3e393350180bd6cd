/**
 * What every git operation shares: the per-instance object cache and its queue, the remote with its
 * credentials and time limit, the project's git claim, and reading files on both sides (the project's as
 * blobs, the remote's as a tree). push.ts, pull.ts, status.ts and import-repository.ts are built on it.
 *
 * @example
 * const p = createGitPlumbing(ctx);
 * await p.withCache(projectId, () => p.withRemote(p.credentials(row), (remote) => repo.remoteHead(remote, "main")));
 */
import { join } from "node:path";
import { MAX_FILE_CONTENT_BYTES } from "@shared/schemas/file";
import { blobKey } from "../../db/blobs";
import * as rows from "../../db/git-remotes";
import type { GitRemoteRow, SyncedFiles } from "../../db/git-remotes";
import { hasRunningAgent, latestVersion } from "../../db/versions";
import type { Config } from "../../lib/config";
import { AppError, badRequest, conflict, notFound, tooLarge } from "../../lib/errors";
import { guardedHttp } from "../../lib/guarded-http";
import type { SecretBox } from "../../lib/secret-box";
import type { ProjectAccess } from "../access";
import { sha256Hex } from "../content-blobs";
import type { ServiceContext } from "../context";
import type { ImportLimits } from "../versions/import-zip";
import { withProjectLock } from "../versions/project-lock";
import { captureManifest } from "../versions/snapshot";
import { remoteError } from "./remote-errors";
import * as repo from "./repo";
import { isLfsPointer, selectRepoFiles } from "./repo-files";

export type GitContext = ServiceContext & {
  config: Pick<Config, "git" | "limits" | "dataDir">;
  box: SecretBox;
  /** Restarts `app` after a pull; absent where no app runs. */
  sandboxes?: {
    runWorkflow(access: ProjectAccess): Promise<unknown>;
    stop(ownerId: string, projectId: string, sandboxId: string | null): Promise<void>;
  };
};
export type GitPlumbing = ReturnType<typeof createGitPlumbing>;

export const GIT_DURING_RUN = "The agent is working on this project. Wait for it to finish, or stop it, before pushing or pulling.";
export const GIT_BUSY = "Another git operation is running on this project; try again when it has finished.";

/** The token is sealed bound to its project: a sealed token copied to another project's row does not open. */
export const tokenContext = (projectId: string) => `git-token:${projectId}`;

export const mb = (bytes: number) => `${(bytes / 1048576).toFixed(1)} MB`;

export function createGitPlumbing(ctx: GitContext) {
  const { git: settings } = ctx.config;
  const cacheRoot = join(ctx.config.dataDir, "git-cache");
  const cacheDir = (projectId: string) => join(cacheRoot, `${projectId}.git`);
  const maxResponseBytes = Math.max(64 * 1048576, ctx.config.limits.maxProjectBytes * 2);

  /** Runs `work` against the remote within GIT_TIMEOUT_S, turning every failure into an answer. */
  async function withRemote<T>(c: { url: string; username: string | null; token: string | null }, work: (remote: repo.GitRemote) => Promise<T>): Promise<T> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), settings.timeoutMs);
    const headers: Record<string, string> = {};
    if (c.token) headers.authorization = `Basic ${Buffer.from(`${c.username || "x-access-token"}:${c.token}`).toString("base64")}`;
    const http = guardedHttp({ allowHttp: settings.allowHttp, allowPrivateHosts: settings.allowPrivateHosts, maxResponseBytes, signal: controller.signal });
    try {
      return await work({ url: c.url, headers, http });
    } catch (error) {
      throw remoteError(error, { timedOut: controller.signal.aborted, timeoutS: settings.timeoutMs / 1000 });
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * One operation at a time on a project's cache on this instance (a status's fetch beside a push, say):
   * isomorphic-git does not lock the repository. Across instances each has its own cache.
   */
  const cacheQueues = new Map<string, Promise<unknown>>();
  function withCache<T>(projectId: string, work: () => Promise<T>): Promise<T> {
    const run = (cacheQueues.get(projectId) ?? Promise.resolve()).then(work, work);
    const tail = run.catch(() => {});
    cacheQueues.set(projectId, tail);
    void tail.then(() => {
      if (cacheQueues.get(projectId) === tail) cacheQueues.delete(projectId);
    });
    return run;
  }

  const credentials = (row: GitRemoteRow) => {
    let token: string | null = null;
    if (row.tokenSealed) {
      try {
        token = ctx.box.open(row.tokenSealed, tokenContext(row.projectId));
      } catch {
        throw badRequest("The stored git token does not open (was SECRETS_KEY changed?). Connect the remote again with the token.");
      }
    }
    return { url: row.url, username: row.username, token };
  };

  async function connectedRow(access: ProjectAccess): Promise<GitRemoteRow> {
    const row = await rows.findGitRemote(ctx.sql, access.projectId);
    if (!row) throw notFound("Git remote");
    return row;
  }

  /** Holds the project's git claim (on every instance) around `work`; 409 while another operation or a run holds it. */
  async function exclusive<T>(row: GitRemoteRow, o: { duringRun: boolean }, work: () => Promise<T>): Promise<T> {
    if (!o.duringRun && (await hasRunningAgent(ctx.sql, row.projectId))) throw conflict(GIT_DURING_RUN);
    if (!(await rows.claimGitOperation(ctx.sql, row.projectId, settings.timeoutMs * 3 + 60_000))) throw conflict(GIT_BUSY);
    try {
      return await work();
    } finally {
      await rows.releaseGitOperation(ctx.sql, row.projectId).catch(() => {});
    }
  }

  /** The project's files now, each with its content's sha256 (stored as blobs, marked in use). */
  async function currentFiles(projectId: string) {
    return withProjectLock(ctx.sql, projectId, async () => {
      const latest = await latestVersion(ctx.sql, projectId);
      return (await captureManifest(ctx, projectId, latest?.manifest)).files;
    });
  }

  async function readStored(sha256: string): Promise<Uint8Array> {
    const bytes = await ctx.store.get(blobKey(sha256));
    if (!bytes) throw new AppError(500, "internal", "A file's content is missing from storage.");
    return bytes;
  }

  /** The remote's files at `commit`, kept by the import rules, each with its sha256 (reading only what changed). */
  async function remoteFiles(gitdir: string, commit: string, known: SyncedFiles) {
    const { kept, skipped } = selectRepoFiles(await repo.listTree(gitdir, commit));
    const bytesBySha = new Map<string, Uint8Array>();
    const files = new Map<string, { sha256: string; oid: string; size: number }>();
    const lfsPointers: string[] = [];
    const cache = {};
    for (const e of kept) {
      const prior = known[e.path];
      if (prior && prior[1] === e.oid) {
        files.set(e.path, { sha256: prior[0], oid: e.oid, size: -1 });
        continue;
      }
      const bytes = await repo.readBlob(gitdir, e.oid, cache);
      const sha256 = sha256Hex(bytes);
      bytesBySha.set(sha256, bytes);
      files.set(e.path, { sha256, oid: e.oid, size: bytes.length });
      if (isLfsPointer(bytes)) lfsPointers.push(e.path);
    }
    return { files, skipped, lfsPointers, bytesBySha };
  }

  const importLimits = (): ImportLimits => ({
    maxFiles: ctx.config.limits.maxFilesPerProject || Number.POSITIVE_INFINITY,
    maxTotalBytes: ctx.config.limits.maxProjectBytes || Number.POSITIVE_INFINITY,
    maxFileBytes: MAX_FILE_CONTENT_BYTES,
    maxRatio: 0,
  });

  /** 413 when what a pull or an import would leave is over the project's limits; checked before anything is written. */
  function checkLimits(count: number, totalBytes: number, largest: { path: string; size: number } | null) {
    const limits = importLimits();
    if (count > limits.maxFiles) throw tooLarge(`The repository holds ${count} files; a project may have at most ${limits.maxFiles}.`);
    if (totalBytes > limits.maxTotalBytes)
      throw tooLarge(`The repository's files come to ${mb(totalBytes)}; a project may hold at most ${mb(limits.maxTotalBytes)}.`);
    if (largest && largest.size > limits.maxFileBytes)
      throw tooLarge(`${largest.path} is ${mb(largest.size)}; a file may be at most ${mb(limits.maxFileBytes)}.`);
  }

  return { settings, cacheRoot, cacheDir, withRemote, withCache, credentials, connectedRow, exclusive, currentFiles, readStored, remoteFiles, checkLimits };
}
