/**
 * Queries on `blobs` (content stored once at `blobs/sha256/<hash>`: versions, published sites and, since
 * migration 00013, the files themselves name them by hash). The protocol that keeps the sweep from deleting a blob a writer relies on is in
 * the migration: writers upsert (refreshing last_used_at) before relying on a blob; the sweep locks rows.
 */
import type { Sql } from "./client";

export const blobKey = (sha256: string) => `blobs/sha256/${sha256}`;

/**
 * Marks each blob as in use now, creating rows for new ones. Returns the hashes whose object may be
 * missing (new, or left half-deleted by a sweep): the caller must put those objects, then `markStored`.
 */
export async function touchBlobs(sql: Sql, blobs: { sha256: string; size: number }[]): Promise<Set<string>> {
  const unique = [...new Map(blobs.map((b) => [b.sha256, b])).values()];
  if (unique.length === 0) return new Set();
  const rows = await sql<{ sha256: string; stored: boolean }[]>`
    insert into blobs (sha256, size)
    select * from unnest(${unique.map((b) => b.sha256)}::text[], ${unique.map((b) => b.size)}::bigint[])
    on conflict (sha256) do update set last_used_at = now()
    returning sha256, stored`;
  return new Set(rows.filter((r) => !r.stored).map((r) => r.sha256));
}

export async function markStored(sql: Sql, hashes: string[]): Promise<void> {
  if (hashes.length === 0) return;
  await sql`update blobs set stored = true where sha256 = any(${hashes}::text[])`;
}

export type FileWithHash = { id: string; path: string; size: number; storageKey: string; sha256: string | null };

/** The project's files with the hash of their content (null for old content never hashed yet). */
export async function listFilesWithHashes(sql: Sql, projectId: string): Promise<FileWithHash[]> {
  return sql<FileWithHash[]>`
    select id, path, size, storage_key as "storageKey", sha256 from files where project_id = ${projectId}`;
}

/**
 * Inside the sweep's transaction: locks up to `limit` blobs that no version or deployment references and nobody has
 * used for `graceSeconds`, and marks them not stored. A writer upserting one of them waits on the lock
 * until the sweep commits, then finds the row gone (or not stored) and puts the object again.
 */
export async function claimUnusedBlobs(tx: Sql, graceSeconds: number, limit: number): Promise<string[]> {
  const rows = await tx<{ sha256: string }[]>`
    with referenced as materialized (
      select e.value ->> 0 as sha256 from manifests m cross join lateral jsonb_each(m.entries) e
      union
      select e.value ->> 0 from versions v cross join lateral jsonb_each(v.delta) e where jsonb_typeof(e.value) = 'array'
      union
      -- A version's database dump (services/versions/data-state.ts).
      select data_sha256 from versions where data_sha256 is not null
      union
      -- Published sites' files are the same blobs (services/publish).
      select e.value ->> 0 from deployments d cross join lateral jsonb_each(d.files) e
      union
      -- Files' current contents are blobs too (their writers touch them first, as version writers do).
      select sha256 from files where sha256 is not null
    )
    update blobs set stored = false
    where sha256 in (
      select b.sha256 from blobs b
      where b.last_used_at < now() - make_interval(secs => ${graceSeconds})
        and b.sha256 not in (select sha256 from referenced)
      order by b.last_used_at
      limit ${limit}
      for update skip locked
    )
    returning sha256`;
  return rows.map((r) => r.sha256);
}

export async function deleteBlobRows(tx: Sql, hashes: string[]): Promise<void> {
  if (hashes.length === 0) return;
  await tx`delete from blobs where sha256 = any(${hashes}::text[]) and stored = false`;
}
