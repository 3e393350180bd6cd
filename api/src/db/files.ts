/**
 * Queries on `files` (metadata only; contents live in the object store under `storage_key`, which for content
 * written since migration 00013 is the blob `blobs/sha256/<sha256>` itself).
 */
import type { ProjectFile } from "@shared/schemas/file";
import type { Sql } from "./client";

/** `sha256` is null only for content written before hashes were recorded at write time (see 00013). */
export type FileRow = ProjectFile & { storageKey: string; sha256: string | null };
/** What a row pointed at before a write replaced it or a delete removed it. */
export type StoredContent = { storageKey: string; sha256: string | null; size: number };
type RawRow = Omit<FileRow, "updatedAt"> & { updatedAt: Date };

const columns = (sql: Sql) => sql`
  id, project_id as "projectId", path, size, storage_key as "storageKey", sha256, updated_at as "updatedAt"`;
const toRow = (r: RawRow): FileRow => ({ ...r, updatedAt: r.updatedAt.toISOString() });
export const toPublicFile = ({ storageKey: _key, sha256: _sha256, ...file }: FileRow): ProjectFile => file;

export async function listFiles(sql: Sql, projectId: string): Promise<FileRow[]> {
  const rows = await sql<RawRow[]>`select ${columns(sql)} from files where project_id = ${projectId} order by path`;
  return rows.map(toRow);
}

/** A file by id, only when its project belongs to `ownerId`. */
/** The file, only when it is in this project (a file id from another project behaves as a missing one). */
export async function findFileInProject(sql: Sql, projectId: string, fileId: string): Promise<FileRow | null> {
  const [row] = await sql<RawRow[]>`
    select f.id, f.project_id as "projectId", f.path, f.size, f.storage_key as "storageKey", f.sha256, f.updated_at as "updatedAt"
    from files f where f.id = ${fileId} and f.project_id = ${projectId}`;
  return row ? toRow(row) : null;
}

/** Which project the file is in (routes address a file by its id alone), or null. */
export async function findFileProjectId(sql: Sql, fileId: string): Promise<string | null> {
  const [row] = await sql<{ projectId: string }[]>`select project_id as "projectId" from files where id = ${fileId}`;
  return row?.projectId ?? null;
}

export async function findFileByPath(sql: Sql, projectId: string, path: string): Promise<FileRow | null> {
  const [row] = await sql<RawRow[]>`select ${columns(sql)} from files where project_id = ${projectId} and path = ${path}`;
  return row ? toRow(row) : null;
}

/**
 * A file whose path is a folder of `path` ("a" for "a/b") or lies inside `path` as a folder ("a/b" for "a"):
 * a file and a folder cannot share a path (on disk, in a ZIP, in the sandbox).
 */
export async function findPathClash(sql: Sql, projectId: string, path: string, exceptPath = ""): Promise<string | null> {
  const parts = path.split("/");
  const folders = parts.slice(0, -1).map((_, i) => parts.slice(0, i + 1).join("/"));
  const [row] = await sql<{ path: string }[]>`
    select path from files
    where project_id = ${projectId} and path <> ${exceptPath} and (path = any(${folders}::text[]) or starts_with(path, ${`${path}/`}))
    limit 1`;
  return row?.path ?? null;
}

export async function insertFile(
  sql: Sql,
  f: { id: string; projectId: string; path: string; size: number; storageKey: string; sha256: string },
): Promise<FileRow> {
  const [row] = await sql<RawRow[]>`
    insert into files (id, project_id, path, size, storage_key, sha256)
    values (${f.id}, ${f.projectId}, ${f.path}, ${f.size}, ${f.storageKey}, ${f.sha256})
    returning ${columns(sql)}`;
  return toRow(row!);
}

/** Points the row at new content; returns the updated row and the content it replaced (read in the same statement). */
export async function replaceFileContent(
  sql: Sql,
  f: { id: string; size: number; storageKey: string; sha256: string },
): Promise<{ file: FileRow; previous: StoredContent } | null> {
  type Previous = { previousKey: string; previousSha256: string | null; previousSize: number };
  const [row] = await sql<(RawRow & Previous)[]>`
    update files as f set size = ${f.size}, storage_key = ${f.storageKey}, sha256 = ${f.sha256}, updated_at = now()
    from (select id, storage_key as previous_key, sha256 as previous_sha256, size as previous_size from files where id = ${f.id} for update) old
    where f.id = old.id
    returning f.id, f.project_id as "projectId", f.path, f.size, f.storage_key as "storageKey", f.sha256,
              f.updated_at as "updatedAt", old.previous_key as "previousKey", old.previous_sha256 as "previousSha256",
              old.previous_size as "previousSize"`;
  if (!row) return null;
  const { previousKey, previousSha256, previousSize, ...file } = row;
  return { file: toRow(file), previous: { storageKey: previousKey, sha256: previousSha256, size: Number(previousSize) } };
}

/** Records the hash of content written before hashes were kept, unless the row has moved on to other content. */
export async function recordFileHashes(sql: Sql, entries: { storageKey: string; sha256: string }[]): Promise<void> {
  if (entries.length === 0) return;
  await sql`
    update files f set sha256 = t.h
    from unnest(${entries.map((e) => e.storageKey)}::text[], ${entries.map((e) => e.sha256)}::text[]) as t(k, h)
    where f.storage_key = t.k and f.sha256 is null`;
}

export async function renameFile(sql: Sql, id: string, newPath: string): Promise<FileRow | null> {
  const [row] = await sql<RawRow[]>`
    update files set path = ${newPath}, updated_at = now() where id = ${id} returning ${columns(sql)}`;
  return row ? toRow(row) : null;
}

export async function deleteFileRow(sql: Sql, id: string): Promise<FileRow | null> {
  const [row] = await sql<RawRow[]>`delete from files where id = ${id} returning ${columns(sql)}`;
  return row ? toRow(row) : null;
}

/** How many files a project has, and the bytes it holds: its files and its uploaded images together. */
export async function projectUsage(sql: Sql, projectId: string): Promise<{ files: number; bytes: number }> {
  const [row] = await sql<{ files: number; bytes: number }[]>`
    select count(*)::int as files,
      (coalesce(sum(size), 0) + (select coalesce(sum(size), 0) from uploads where project_id = ${projectId}))::float8 as bytes
    from files where project_id = ${projectId}`;
  return row!;
}
