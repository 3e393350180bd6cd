/**
 * Two-way git with any HTTPS smart-HTTP remote: connect (checked with a ref listing), status, push (the
 * project's files as one commit on the branch), pull (the branch's head merged three-way into the files, as a
 * new version; the sandbox follows through the file service and `app` restarts), import by URL, and the
 * automatic push after an agent run. Every route checks the project is the caller's first (404 otherwise).
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
import { renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { ConnectGit, GitPullResult, GitPushResult, GitStatus, ImportGit, SkippedGitFile } from "@shared/schemas/git";
import { MAX_FILE_CONTENT_BYTES } from "@shared/schemas/file";
import { MAX_PROJECT_NAME_LENGTH, type Project } from "@shared/schemas/project";
import { blobKey } from "../../db/blobs";
import * as rows from "../../db/git-remotes";
import type { GitRemoteRow, SyncedFiles } from "../../db/git-remotes";
import { hasRunningAgent, latestVersion } from "../../db/versions";
import type { Config } from "../../lib/config";
import { AppError, badRequest, conflict, notFound, tooLarge } from "../../lib/errors";
import { guardedHttp } from "../../lib/guarded-http";
import { isIgnoredPath } from "../../sandbox/ignored-paths";
import type { SecretBox } from "../../lib/secret-box";
import { sha256Hex } from "../content-blobs";
import type { ServiceContext } from "../context";
import { deleteProjectFile, writeFileAtPath } from "../files";
import { type ProjectAccess, projectAccess } from "../access";
import { createProject, deleteProject, getProject } from "../projects";
import { versionLabel } from "../versions/hooks";
import type { ImportLimits } from "../versions/import-zip";
import { forEachLimit, withProjectLock } from "../versions/project-lock";
import { captureManifest, takeVersion, takeVersionLocked } from "../versions/snapshot";
import { type PullPlan, planPull } from "./merge";
import { remoteError } from "./remote-errors";
import * as repo from "./repo";
import { isLfsPointer, selectRepoFiles } from "./repo-files";

export type GitService = ReturnType<typeof createGitService>;
export type GitContext = ServiceContext & {
  config: Pick<Config, "git" | "limits" | "dataDir">;
  box: SecretBox;
  /** Restarts `app` after a pull; absent where no app runs. */
  sandboxes?: {
    runWorkflow(access: ProjectAccess): Promise<unknown>;
    stop(ownerId: string, projectId: string, sandboxId: string | null): Promise<void>;
  };
};

export const PULL_FIRST = "The remote has changes: pull first.";
export const GIT_DURING_RUN = "The agent is working on this project. Wait for it to finish, or stop it, before pushing or pulling.";
export const GIT_BUSY = "Another git operation is running on this project; try again when it has finished.";
/** How deep a pull fetches: the panel's "last commits" come from the cache. */
const RECENT_DEPTH = 10;
/** Commits counted behind, at most (a status fetches no deeper). */
const BEHIND_DEPTH = 50;

/** A user-given URL without its credentials (which come back separately), or 400. */
export function parseRemoteUrl(raw: string): { url: string; username?: string; password?: string } {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw badRequest("The remote URL is not a valid URL; use the HTTPS clone URL, e.g. https://gitea.example.com/me/app.git.");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") throw badRequest(`${url.protocol} URLs are not supported; use the HTTPS clone URL.`);
  const username = url.username ? decodeURIComponent(url.username) : undefined;
  const password = url.password ? decodeURIComponent(url.password) : undefined;
  url.username = "";
  url.password = "";
  url.hash = "";
  return { url: url.toString(), username, password };
}

const tokenContext = (projectId: string) => `git-token:${projectId}`;

export function createGitService(ctx: GitContext) {
  const { git: settings } = ctx.config;
  const cacheDir = (projectId: string) => join(ctx.config.dataDir, "git-cache", `${projectId}.git`);
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

  async function authorOf(ownerId: string): Promise<repo.Author> {
    const who = await rows.userIdentity(ctx.sql, ownerId);
    return { name: who.name || who.email?.split("@")[0] || "App user", email: who.email || `${ownerId}@users.noreply.invalid` };
  }

  async function defaultMessage(row: GitRemoteRow): Promise<string> {
    // "Before: …" versions record the files before a run or restore, not a change of their own.
    const labels = [...new Set(await rows.versionLabelsSince(ctx.sql, row.projectId, row.lastPushedAt, 50))].filter((l) => !/^Before[: ]/.test(l));
    if (labels.length === 0) return "Update from the app builder";
    if (labels.length === 1) return labels[0]!;
    return `${labels.at(-1)} (and ${labels.length - 1} earlier changes)\n\n${labels.map((l) => `- ${l}`).join("\n")}`;
  }

  /** Commits as the member who pushes (or whose run pushed). */
  async function push(access: ProjectAccess, body: { message?: string; force?: boolean }, o = { duringRun: false }): Promise<GitPushResult> {
    const row = await connectedRow(access);
    return exclusive(row, o, () =>
      withCache(row.projectId, () =>
        withRemote(credentials(row), async (remote) => {
          const gitdir = await repo.openRepo(cacheDir(row.projectId));
          // Usually the remote is where we left it: the push's own ref listing checks that (onPrePush), sparing a
          // round trip. Otherwise (never synced, a cache without the commit, force) the branch is asked first.
          const assumed = !body.force && row.syncedCommit !== null && (await repo.hasObject(gitdir, row.syncedCommit));
          const head = assumed ? row.syncedCommit : await repo.remoteHead(remote, row.branch);
          if (head && head !== row.syncedCommit && !body.force) throw conflict(PULL_FIRST);
          if (head && !(await repo.hasObject(gitdir, head))) await repo.fetchBranch(gitdir, remote, row.branch, 1);

          // What the sandbox sync ignores (node_modules, build output, caches) is never committed.
          const files = (await currentFiles(row.projectId)).filter((f) => !isIgnoredPath(f.path));
          // Unchanged files keep the blob oid of the synced commit, whose objects the cache now holds.
          const known = head !== null && head === row.syncedCommit ? row.syncedFiles : {};
          const oids = new Map<string, string>();
          const synced: SyncedFiles = {};
          await forEachLimit(files, 8, async (f) => {
            const prior = known[f.path];
            const oid = prior && prior[0] === f.sha256 ? prior[1] : await repo.writeBlob(gitdir, await readStored(f.sha256!));
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

  function checkLimits(count: number, totalBytes: number, largest: { path: string; size: number } | null, limits: ImportLimits) {
    if (count > limits.maxFiles) throw tooLarge(`The repository holds ${count} files; a project may have at most ${limits.maxFiles}.`);
    if (totalBytes > limits.maxTotalBytes)
      throw tooLarge(`The repository's files come to ${mb(totalBytes)}; a project may hold at most ${mb(limits.maxTotalBytes)}.`);
    if (largest && largest.size > limits.maxFileBytes)
      throw tooLarge(`${largest.path} is ${mb(largest.size)}; a file may be at most ${mb(limits.maxFileBytes)}.`);
  }

  async function pull(access: ProjectAccess, o = { duringRun: false }): Promise<GitPullResult | { conflicts: string[] }> {
    const row = await connectedRow(access);
    const result = await exclusive(row, o, () =>
      withCache(row.projectId, () =>
        withRemote(credentials(row), async (remote) => {
          const head = await repo.remoteHead(remote, row.branch);
          if (!head) throw new AppError(404, "not_found", `The branch "${row.branch}" does not exist on the remote.`);
          const none = { written: 0, deleted: 0, merged: [], skipped: [] as SkippedGitFile[], lfsPointers: [] as string[] };
          if (head === row.syncedCommit) return { upToDate: true, commit: head, ...none };
          const gitdir = await repo.openRepo(cacheDir(row.projectId));
          // A few commits deep, not one: the panel lists the last commits from this cache.
          await repo.fetchBranch(gitdir, remote, row.branch, RECENT_DEPTH);
          const theirs = await remoteFiles(gitdir, head, row.syncedFiles);
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
            const plan: PullPlan = await planPull({ base, ours, theirs: new Map([...theirs.files].map(([p, f]) => [p, f.sha256])), read });
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
            checkLimits(
              sizes.size,
              [...sizes.values()].reduce((a, b) => a + b, 0),
              largest,
              importLimits(),
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
  }

  const importLimits = (): ImportLimits => ({
    maxFiles: ctx.config.limits.maxFilesPerProject || Number.POSITIVE_INFINITY,
    maxTotalBytes: ctx.config.limits.maxProjectBytes || Number.POSITIVE_INFINITY,
    maxFileBytes: MAX_FILE_CONTENT_BYTES,
    maxRatio: 0,
  });

  async function restartApp(access: ProjectAccess) {
    if (!ctx.sandboxes) return;
    try {
      const project = await getProject(ctx, access);
      if (project.sandboxId && project.workflowCommand) await ctx.sandboxes.runWorkflow(access);
    } catch (error) {
      ctx.logger.warn("app not restarted after a git pull", { projectId: access.projectId, error: String(error) });
    }
  }

  async function status(access: ProjectAccess): Promise<GitStatus | null> {
    const row = await rows.findGitRemote(ctx.sql, access.projectId);
    if (!row) return null;
    const files = await currentFiles(row.projectId);
    const here = new Map(files.map((f) => [f.path, f.sha256]));
    const paths = new Set([...here.keys(), ...Object.keys(row.syncedFiles)]);
    const ahead = row.syncedCommit === null ? here.size : [...paths].filter((p) => here.get(p) !== row.syncedFiles[p]?.[0]).length;
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
      await withCache(row.projectId, () =>
        withRemote(credentials(row), async (remote) => {
          const head = await repo.remoteHead(remote, row.branch);
          if (!head) return;
          const gitdir = await repo.openRepo(cacheDir(row.projectId));
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
  }

  return {
    status,
    push,
    pull,

    /** Connects (or reconnects) after a ref listing shows the URL answers and the credentials are accepted. */
    async connect(access: ProjectAccess, body: ConnectGit): Promise<GitStatus> {
      const project = { id: access.projectId };
      const parsed = parseRemoteUrl(body.url);
      const existing = await rows.findGitRemote(ctx.sql, project.id);
      const username = body.username?.trim() || parsed.username || null;
      // No token given: keep the stored one when reconnecting the same remote (changing only auto-push, say).
      const token =
        body.token !== undefined ? body.token.trim() || null : (parsed.password ?? (existing?.url === parsed.url ? credentials(existing).token : null));
      const branch = body.branch ?? existing?.branch ?? "main";
      await withRemote({ url: parsed.url, username, token }, (remote) => repo.remoteHead(remote, branch));
      await rows.upsertGitRemote(ctx.sql, {
        projectId: project.id,
        url: parsed.url,
        branch,
        username,
        tokenSealed: token ? ctx.box.seal(token, tokenContext(project.id)) : null,
        autoPush: body.autoPush ?? existing?.autoPush ?? false,
      });
      return (await status(access))!;
    },

    async disconnect(access: ProjectAccess): Promise<void> {
      const project = { id: access.projectId };
      if (!(await rows.deleteGitRemote(ctx.sql, project.id))) throw notFound("Git remote");
      rmSync(cacheDir(project.id), { recursive: true, force: true });
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

    /** A new project from the repository's branch, connected to it. Limits are checked before anything is written. */
    async importRepository(
      ownerId: string,
      input: ImportGit,
    ): Promise<Project & { git: { commit: string; skipped: SkippedGitFile[]; lfsPointers: string[] } }> {
      const parsed = parseRemoteUrl(input.gitUrl);
      const username = input.username?.trim() || parsed.username || null;
      const token = input.token?.trim() || parsed.password || null;
      const branch = input.branch ?? "main";
      const staging = join(ctx.config.dataDir, "git-cache", `import-${crypto.randomUUID()}.git`);
      try {
        const fetched = await withRemote({ url: parsed.url, username, token }, async (remote) => {
          const head = await repo.remoteHead(remote, branch);
          if (!head) throw new AppError(404, "not_found", `The branch "${branch}" does not exist on the remote.`);
          const gitdir = await repo.openRepo(staging);
          await repo.fetchBranch(gitdir, remote, branch, 1);
          const theirs = await remoteFiles(gitdir, head, {});
          return { head, gitdir, ...theirs };
        });
        const sizes = [...fetched.files].map(([path, f]) => ({ path, size: f.size }));
        const largest = sizes.reduce<{ path: string; size: number } | null>((big, f) => (f.size > (big?.size ?? -1) ? f : big), null);
        checkLimits(
          sizes.length,
          sizes.reduce((a, f) => a + f.size, 0),
          largest,
          importLimits(),
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
        renameSync(staging, cacheDir(project.id));
        return {
          ...(await getProject(ctx, access)),
          git: { commit: fetched.head, skipped: fetched.skipped, lfsPointers: fetched.lfsPointers },
        };
      } finally {
        rmSync(staging, { recursive: true, force: true });
      }
    },
  };
}

const mb = (bytes: number) => `${(bytes / 1048576).toFixed(1)} MB`;
