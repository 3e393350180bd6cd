/** Queries on `files` (metadata only; contents live in the object store under `storage_key`). */
import type { ProjectFile } from "@shared/schemas/file";
import type { Sql } from "./client";

export type FileRow = ProjectFile & { storageKey: string };
type RawRow = Omit<FileRow, "updatedAt"> & { updatedAt: Date };

const columns = (sql: Sql) => sql`
  id, project_id as "projectId", path, size, storage_key as "storageKey", updated_at as "updatedAt"`;
const toRow = (r: RawRow): FileRow => ({ ...r, updatedAt: r.updatedAt.toISOString() });
export const toPublicFile = ({ storageKey: _key, ...file }: FileRow): ProjectFile => file;

export async function listFiles(sql: Sql, projectId: string): Promise<FileRow[]> {
  const rows = await sql<RawRow[]>`select ${columns(sql)} from files where project_id = ${projectId} order by path`;
  return rows.map(toRow);
}

/** A file by id, only when its project belongs to `ownerId`. */
export async function findOwnedFile(sql: Sql, ownerId: string, fileId: string): Promise<FileRow | null> {
  const [row] = await sql<RawRow[]>`
    select f.id, f.project_id as "projectId", f.path, f.size, f.storage_key as "storageKey", f.updated_at as "updatedAt"
    from files f join projects p on p.id = f.project_id
    where f.id = ${fileId} and p.owner_id = ${ownerId}`;
  return row ? toRow(row) : null;
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
  f: { id: string; projectId: string; path: string; size: number; storageKey: string },
): Promise<FileRow> {
  const [row] = await sql<RawRow[]>`
    insert into files (id, project_id, path, size, storage_key)
    values (${f.id}, ${f.projectId}, ${f.path}, ${f.size}, ${f.storageKey})
    returning ${columns(sql)}`;
  return toRow(row!);
}

/** Points the row at new content; returns the updated row and the key of the content it replaced. */
export async function replaceFileContent(
  sql: Sql,
  f: { id: string; size: number; storageKey: string },
): Promise<{ file: FileRow; previousKey: string } | null> {
  const [row] = await sql<(RawRow & { previousKey: string })[]>`
    update files as f set size = ${f.size}, storage_key = ${f.storageKey}, updated_at = now()
    from (select id, storage_key as previous_key from files where id = ${f.id} for update) old
    where f.id = old.id
    returning f.id, f.project_id as "projectId", f.path, f.size, f.storage_key as "storageKey",
              f.updated_at as "updatedAt", old.previous_key as "previousKey"`;
  if (!row) return null;
  const { previousKey, ...file } = row;
  return { file: toRow(file), previousKey };
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
