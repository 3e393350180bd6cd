/**
 * Queries on `versions` and `manifests`. A version's manifest is its full manifest (shared by several
 * versions) overlaid by its own small delta: see the migration for why. Full manifests never change, so the
 * ones in use are kept in memory and taking a version usually reads only the newest version's delta.
 */
import type { VersionSource, VersionSummary } from "@shared/schemas/versions";
import type { Sql } from "./client";

/** path → [sha256, size, mode]. Arrays rather than objects: a 1,000-file manifest stays near 100 KB. */
export type Manifest = Record<string, ManifestEntry>;
export type ManifestEntry = [sha256: string, size: number, mode: number];
/** What a version changes in its full manifest: a new entry, or null for a removed path. */
export type Delta = Record<string, ManifestEntry | null>;

/** The project's database as a version holds it: see services/versions/data-state.ts. */
export type DataState = { status: "none" | "included" | "too_large"; sha256?: string };

export type VersionRow = VersionSummary & {
  projectId: string;
  parentId: string | null;
  baseManifestId: string;
  coalesceUntil: Date | null;
  dataState: DataState;
};
export type VersionWithManifest = VersionRow & { manifest: Manifest };

type RawRow = Omit<VersionRow, "createdAt" | "messageId" | "bytes" | "dataState" | "data"> & {
  createdAt: Date;
  messageId: string | null;
  bytes: number | string;
  dataStatus: DataState["status"];
  dataSha256: string | null;
};

/** A full manifest is shared until a version's delta would hold more than this share of its entries. */
const DELTA_SHARE = 0.1;
const MIN_DELTA_ENTRIES = 32;
const CACHED_MANIFESTS = 64;

const columns = (sql: Sql) => sql`
  id, project_id as "projectId", parent_id as "parentId", base_manifest_id as "baseManifestId", source, label,
  message_id as "messageId", files_changed as "filesChanged", bytes::float8 as bytes, coalesce_until as "coalesceUntil",
  created_at as "createdAt", data_status as "dataStatus", data_sha256 as "dataSha256", data_changed as "dataChanged"`;

const toRow = ({ messageId, createdAt, bytes, dataStatus, dataSha256, ...r }: RawRow): VersionRow => ({
  ...r,
  bytes: Number(bytes),
  data: dataStatus,
  dataState: dataSha256 ? { status: dataStatus, sha256: dataSha256 } : { status: dataStatus },
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
  data: v.data,
  dataChanged: v.dataChanged,
});

// Least recently used first (a Map keeps insertion order).
const cache = new Map<string, Manifest>();
function remember(id: string, manifest: Manifest): void {
  cache.delete(id);
  cache.set(id, manifest);
  if (cache.size > CACHED_MANIFESTS) cache.delete(cache.keys().next().value!);
}

export async function fullManifest(sql: Sql, id: string): Promise<Manifest> {
  const hit = cache.get(id);
  if (hit) {
    remember(id, hit);
    return hit;
  }
  const [row] = await sql<{ entries: Manifest }[]>`select entries from manifests where id = ${id}`;
  if (!row) throw new Error(`Manifest ${id} is missing`);
  remember(id, row.entries);
  return row.entries;
}

export function overlay(base: Manifest, delta: Delta): Manifest {
  const out: Manifest = { ...base };
  for (const [path, entry] of Object.entries(delta)) {
    if (entry === null) delete out[path];
    else out[path] = entry;
  }
  return out;
}

export function deltaOf(base: Manifest, next: Manifest): Delta {
  const delta: Delta = {};
  for (const [path, entry] of Object.entries(next)) {
    const was = base[path];
    if (!was || was[0] !== entry[0] || was[2] !== entry[2]) delta[path] = entry;
  }
  for (const path of Object.keys(base)) if (!(path in next)) delta[path] = null;
  return delta;
}

async function resolve(sql: Sql, row: RawRow & { delta: Delta }): Promise<VersionWithManifest> {
  const { delta, ...rest } = row;
  return { ...toRow(rest), manifest: overlay(await fullManifest(sql, row.baseManifestId), delta) };
}

/** Newest first; `before` is the id of the last version of the previous page. */
export async function listVersions(sql: Sql, projectId: string, page: { limit: number; before?: string }): Promise<VersionRow[]> {
  const after = page.before ? sql`and seq < (select seq from versions where id = ${page.before} and project_id = ${projectId})` : sql``;
  const rows = await sql<RawRow[]>`
    select ${columns(sql)} from versions where project_id = ${projectId} ${after}
    order by seq desc limit ${page.limit}`;
  return rows.map(toRow);
}

export async function findVersion(sql: Sql, projectId: string, id: string): Promise<VersionWithManifest | null> {
  const [row] = await sql<(RawRow & { delta: Delta })[]>`
    select ${columns(sql)}, delta from versions where id = ${id} and project_id = ${projectId}`;
  return row ? resolve(sql, row) : null;
}

export async function latestVersion(sql: Sql, projectId: string): Promise<VersionWithManifest | null> {
  const [row] = await sql<(RawRow & { delta: Delta })[]>`
    select ${columns(sql)}, delta from versions where project_id = ${projectId}
    order by seq desc limit 1`;
  return row ? resolve(sql, row) : null;
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
  data: DataState;
  /** The data differs from the parent version's (History marks it). */
  dataChanged: boolean;
};

/**
 * Inserts the version as a delta over `baseManifestId` (the full manifest of the version it follows) when
 * the delta stays small, else with a new full manifest in the same statement. With `replaces`, deletes that
 * version in the same transaction (a coalesced user edit takes the place of the one before it).
 */
export async function insertVersion(sql: Sql, v: NewVersion, options: { baseManifestId?: string | null; replaces?: string } = {}): Promise<VersionRow> {
  const base = options.baseManifestId ? { id: options.baseManifestId, manifest: await fullManifest(sql, options.baseManifestId) } : null;
  const delta = base ? deltaOf(base.manifest, v.manifest) : null;
  const limit = Math.max(MIN_DELTA_ENTRIES, Object.keys(v.manifest).length * DELTA_SHARE);
  const reuse = base !== null && delta !== null && Object.keys(delta).length <= limit;
  const newBaseId = reuse ? null : crypto.randomUUID();

  const insert = (q: Sql) =>
    reuse
      ? q<RawRow[]>`
          insert into versions (id, project_id, parent_id, base_manifest_id, delta, source, label, message_id, files_changed, bytes, coalesce_until,
                                data_status, data_sha256, data_changed)
          values (${v.id}, ${v.projectId}, ${v.parentId}, ${base!.id}, ${q.json(delta as never)}, ${v.source}, ${v.label}, ${v.messageId},
                  ${v.filesChanged}, ${v.bytes}, ${v.coalesceUntil}, ${v.data.status}, ${v.data.sha256 ?? null}, ${v.dataChanged})
          returning ${columns(q)}`
      : q<RawRow[]>`
          with manifest as (
            insert into manifests (id, project_id, entries) values (${newBaseId}, ${v.projectId}, ${q.json(v.manifest as never)}) returning id
          )
          insert into versions (id, project_id, parent_id, base_manifest_id, delta, source, label, message_id, files_changed, bytes, coalesce_until,
                                data_status, data_sha256, data_changed)
          select ${v.id}, ${v.projectId}, ${v.parentId}, manifest.id, '{}'::jsonb, ${v.source}, ${v.label}, ${v.messageId},
                 ${v.filesChanged}, ${v.bytes}, ${v.coalesceUntil}, ${v.data.status}, ${v.data.sha256 ?? null}, ${v.dataChanged}
          from manifest
          returning ${columns(q)}`;

  const row = options.replaces
    ? ((await sql.begin(async (tx) => {
        const q = tx as unknown as Sql;
        const [inserted] = await insert(q);
        await q`delete from versions where id = ${options.replaces!}`;
        return inserted;
      })) as RawRow)
    : (await insert(sql))[0]!;
  if (newBaseId) remember(newBaseId, v.manifest);
  return toRow(row);
}

/** The versions an agent run took (its assistant message's id), oldest first: "Before: …" then the run's own. */
export async function versionsOfMessage(sql: Sql, projectId: string, messageId: string): Promise<VersionRow[]> {
  const rows = await sql<RawRow[]>`
    select ${columns(sql)} from versions where project_id = ${projectId} and message_id = ${messageId}
    order by seq asc`;
  return rows.map(toRow);
}

/** The newest version taken at or before `at`, or null. */
export async function latestVersionAt(sql: Sql, projectId: string, at: Date): Promise<VersionRow | null> {
  const [row] = await sql<RawRow[]>`
    select ${columns(sql)} from versions where project_id = ${projectId} and created_at <= ${at}
    order by seq desc limit 1`;
  return row ? toRow(row) : null;
}

export async function findVersionRow(sql: Sql, projectId: string, id: string): Promise<VersionRow | null> {
  const [row] = await sql<RawRow[]>`select ${columns(sql)} from versions where id = ${id} and project_id = ${projectId}`;
  return row ? toRow(row) : null;
}

/**
 * A chat message and the agent run it belongs to: an assistant message is its own run; a user message's run
 * is the assistant message a run stores with it, a millisecond later. Null when the message is not in the project.
 */
export async function runOfMessage(sql: Sql, projectId: string, messageId: string): Promise<{ createdAt: Date; runMessageId: string | null } | null> {
  const [row] = await sql<{ role: string; createdAt: Date; next: string | null }[]>`
    select m.role, m.created_at as "createdAt",
      (select a.id from messages a
        where a.project_id = m.project_id and a.role = 'assistant' and a.created_at = m.created_at + interval '1 millisecond'
        order by a.id limit 1) as next
    from messages m where m.id = ${messageId} and m.project_id = ${projectId}`;
  if (!row) return null;
  return { createdAt: row.createdAt, runMessageId: row.role === "assistant" ? messageId : row.next };
}

/**
 * Deletes versions older than `keepDays`, except each project's newest `keepNewest`, then the full
 * manifests no version uses any more. Returns how many versions went.
 */
export async function pruneVersions(sql: Sql, keepDays: number, keepNewest: number): Promise<number> {
  const rows = await sql`
    delete from versions v using (
      select id, row_number() over (partition by project_id order by seq desc) as rank from versions
    ) ranked
    where v.id = ranked.id and ranked.rank > ${keepNewest} and v.created_at < now() - make_interval(days => ${keepDays})
    returning v.id`;
  await sql`delete from manifests m where not exists (select 1 from versions v where v.base_manifest_id = m.id)`;
  return rows.length;
}

/** Whether the project has an agent run in progress (its 'running' assistant message). */
export async function hasRunningAgent(sql: Sql, projectId: string): Promise<boolean> {
  const [row] = await sql`select 1 from messages where project_id = ${projectId} and status = 'running' limit 1`;
  return Boolean(row);
}
