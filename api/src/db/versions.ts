/** Queries on `versions`: one row per version, holding the whole manifest as JSONB (see the migration). */
import type { VersionSource, VersionSummary } from "@shared/schemas/versions";
import type { Sql } from "./client";

/** path → [sha256, size, mode]. Arrays rather than objects: a 1,000-file manifest stays near 100 KB. */
export type Manifest = Record<string, ManifestEntry>;
export type ManifestEntry = [sha256: string, size: number, mode: number];

export type VersionRow = VersionSummary & { projectId: string; parentId: string | null; coalesceUntil: Date | null };
export type VersionWithManifest = VersionRow & { manifest: Manifest };

type RawRow = Omit<VersionRow, "createdAt" | "messageId" | "bytes"> & { createdAt: Date; messageId: string | null; bytes: number | string };

const columns = (sql: Sql) => sql`
  id, project_id as "projectId", parent_id as "parentId", source, label, message_id as "messageId",
  files_changed as "filesChanged", bytes::float8 as bytes, coalesce_until as "coalesceUntil", created_at as "createdAt"`;

const toRow = ({ messageId, createdAt, bytes, ...r }: RawRow): VersionRow => ({
  ...r,
  bytes: Number(bytes),
  createdAt: createdAt.toISOString(),
  ...(messageId ? { messageId } : {}),
});

export const toSummary = (v: VersionRow): VersionSummary => ({
  id: v.id,
  createdAt: v.createdAt,
  label: v.label,
  source: v.source,
  ...(v.messageId ? { messageId: v.messageId } : {}),
  filesChanged: v.filesChanged,
  bytes: v.bytes,
});

/** Newest first; `before` is the id of the last version of the previous page. */
export async function listVersions(sql: Sql, projectId: string, page: { limit: number; before?: string }): Promise<VersionRow[]> {
  const after = page.before
    ? sql`and (created_at, id) < (select created_at, id from versions where id = ${page.before} and project_id = ${projectId})`
    : sql``;
  const rows = await sql<RawRow[]>`
    select ${columns(sql)} from versions where project_id = ${projectId} ${after}
    order by created_at desc, id desc limit ${page.limit}`;
  return rows.map(toRow);
}

export async function findVersion(sql: Sql, projectId: string, id: string): Promise<VersionWithManifest | null> {
  const [row] = await sql<(RawRow & { manifest: Manifest })[]>`
    select ${columns(sql)}, manifest from versions where id = ${id} and project_id = ${projectId}`;
  return row ? { ...toRow(row), manifest: row.manifest } : null;
}

export async function latestVersion(sql: Sql, projectId: string): Promise<VersionWithManifest | null> {
  const [row] = await sql<(RawRow & { manifest: Manifest })[]>`
    select ${columns(sql)}, manifest from versions where project_id = ${projectId}
    order by created_at desc, id desc limit 1`;
  return row ? { ...toRow(row), manifest: row.manifest } : null;
}

export type NewVersion = {
  id: string;
  projectId: string;
  parentId: string | null;
  source: VersionSource;
  label: string;
  messageId: string | null;
  manifest: Manifest;
  filesChanged: number;
  bytes: number;
  coalesceUntil: Date | null;
};

/**
 * Inserts the version; with `replaces`, deletes that version in the same transaction (a coalesced user
 * edit takes the place of the one before it). `created_at` is the transaction's clock, so a version is
 * never dated before the version it follows on the same database.
 */
export async function insertVersion(sql: Sql, v: NewVersion, replaces?: string): Promise<VersionRow> {
  const insert = (q: Sql) => q<RawRow[]>`
    insert into versions (id, project_id, parent_id, source, label, message_id, manifest, files_changed, bytes, coalesce_until)
    values (${v.id}, ${v.projectId}, ${v.parentId}, ${v.source}, ${v.label}, ${v.messageId},
            ${q.json(v.manifest as never)}, ${v.filesChanged}, ${v.bytes}, ${v.coalesceUntil})
    returning ${columns(q)}`;
  if (!replaces) return toRow((await insert(sql))[0]!);
  return sql.begin(async (tx) => {
    const q = tx as unknown as Sql;
    const [row] = await insert(q);
    await q`delete from versions where id = ${replaces}`;
    return toRow(row!);
  }) as Promise<VersionRow>;
}

/** The newest version carrying this message id (the state after that agent run), or null. */
export async function findVersionByMessage(sql: Sql, projectId: string, messageId: string): Promise<VersionRow | null> {
  const [row] = await sql<RawRow[]>`
    select ${columns(sql)} from versions where project_id = ${projectId} and message_id = ${messageId}
    order by created_at desc, id desc limit 1`;
  return row ? toRow(row) : null;
}

/**
 * Deletes versions older than `keepDays`, except each project's newest `keepNewest`. Returns how many went.
 */
export async function pruneVersions(sql: Sql, keepDays: number, keepNewest: number): Promise<number> {
  const rows = await sql`
    delete from versions v using (
      select id, row_number() over (partition by project_id order by created_at desc, id desc) as rank from versions
    ) ranked
    where v.id = ranked.id and ranked.rank > ${keepNewest} and v.created_at < now() - make_interval(days => ${keepDays})
    returning v.id`;
  return rows.length;
}

/** Whether the project has an agent run in progress (its 'running' assistant message). */
export async function hasRunningAgent(sql: Sql, projectId: string): Promise<boolean> {
  const [row] = await sql`select 1 from messages where project_id = ${projectId} and status = 'running' limit 1`;
  return Boolean(row);
}
