/**
 * Queries behind `git_remotes`: a project's connection to a git remote and its sync state (see the migration).
 * The token stays sealed here; opening it is the git service's (lib/secret-box.ts).
 */
import type { Sql } from "./client";

/** path → [sha256, git blob oid] of the files at the synced commit. */
export type SyncedFiles = Record<string, [sha256: string, oid: string]>;

export type GitRemoteRow = {
  projectId: string;
  url: string;
  branch: string;
  username: string | null;
  tokenSealed: string | null;
  autoPush: boolean;
  syncedCommit: string | null;
  syncedFiles: SyncedFiles;
  lastPushedCommit: string | null;
  lastPushedAt: Date | null;
  lastPulledCommit: string | null;
};

const columns = (sql: Sql) => sql`
  project_id as "projectId", url, branch, username, token_sealed as "tokenSealed", auto_push as "autoPush",
  synced_commit as "syncedCommit", synced_files as "syncedFiles", last_pushed_commit as "lastPushedCommit",
  last_pushed_at as "lastPushedAt", last_pulled_commit as "lastPulledCommit"`;

const parsed = (row: GitRemoteRow): GitRemoteRow => ({
  ...row,
  syncedFiles: typeof row.syncedFiles === "string" ? JSON.parse(row.syncedFiles) : row.syncedFiles,
  lastPushedAt: row.lastPushedAt ? new Date(row.lastPushedAt) : null,
});

export async function findGitRemote(sql: Sql, projectId: string): Promise<GitRemoteRow | null> {
  const [row] = await sql<GitRemoteRow[]>`select ${columns(sql)} from git_remotes where project_id = ${projectId}`;
  return row ? parsed(row) : null;
}

/** Connects (or reconnects) the project; a new URL or branch starts the sync state afresh. */
export async function upsertGitRemote(
  sql: Sql,
  r: { projectId: string; url: string; branch: string; username: string | null; tokenSealed: string | null; autoPush: boolean },
): Promise<void> {
  await sql`
    insert into git_remotes (project_id, url, branch, username, token_sealed, auto_push)
    values (${r.projectId}, ${r.url}, ${r.branch}, ${r.username}, ${r.tokenSealed}, ${r.autoPush})
    on conflict (project_id) do update set
      username = excluded.username, token_sealed = excluded.token_sealed, auto_push = excluded.auto_push, updated_at = now(),
      synced_commit = case when git_remotes.url = excluded.url and git_remotes.branch = excluded.branch then git_remotes.synced_commit end,
      synced_files = case when git_remotes.url = excluded.url and git_remotes.branch = excluded.branch then git_remotes.synced_files else '{}'::jsonb end,
      url = excluded.url, branch = excluded.branch`;
}

export async function deleteGitRemote(sql: Sql, projectId: string): Promise<boolean> {
  return (await sql`delete from git_remotes where project_id = ${projectId}`).count > 0;
}

/** After a push or pull: the commit the project now matches, and its files. */
export async function recordSync(sql: Sql, projectId: string, s: { commit: string; files: SyncedFiles; kind: "push" | "pull" }): Promise<void> {
  const files = sql.json(s.files as never);
  if (s.kind === "push") {
    await sql`update git_remotes set synced_commit = ${s.commit}, synced_files = ${files}, last_pushed_commit = ${s.commit},
      last_pushed_at = now(), updated_at = now() where project_id = ${projectId}`;
  } else {
    await sql`update git_remotes set synced_commit = ${s.commit}, synced_files = ${files}, last_pulled_commit = ${s.commit},
      updated_at = now() where project_id = ${projectId}`;
  }
}

/**
 * Claims the project for one git operation (on any instance) for at most `ms`; false when another holds it.
 * The bound frees a claim whose instance died mid-operation.
 */
export async function claimGitOperation(sql: Sql, projectId: string, ms: number): Promise<boolean> {
  const rows = await sql`
    update git_remotes set busy_until = now() + ${`${ms} milliseconds`}::interval
    where project_id = ${projectId} and (busy_until is null or busy_until < now()) returning project_id`;
  return rows.length > 0;
}

export async function releaseGitOperation(sql: Sql, projectId: string): Promise<void> {
  await sql`update git_remotes set busy_until = null where project_id = ${projectId}`;
}

/** Labels of the versions taken since `since` (all when null), oldest first: a push's default message. */
export async function versionLabelsSince(sql: Sql, projectId: string, since: Date | null, limit: number): Promise<string[]> {
  const rows = await sql<{ label: string }[]>`
    select label from versions where project_id = ${projectId} and (${since}::timestamptz is null or created_at > ${since})
    order by seq desc limit ${limit}`;
  return rows.map((r) => r.label).reverse();
}

export async function userIdentity(sql: Sql, uid: string): Promise<{ name: string | null; email: string | null }> {
  const [row] = await sql<{ name: string | null; email: string | null }[]>`select display_name as name, email from users where id = ${uid}`;
  return row ?? { name: null, email: null };
}

/** Of `projectIds`, those still connected to a remote (a deleted project's row went with it). */
export async function connectedProjectIds(sql: Sql, projectIds: string[]): Promise<Set<string>> {
  if (projectIds.length === 0) return new Set();
  const found = await sql<{ projectId: string }[]>`select project_id as "projectId" from git_remotes where project_id::text = any(${projectIds})`;
  return new Set(found.map((r) => r.projectId));
}
