/** Rows of app_databases: which project database exists, where, and whether it is over its size limit. */
import type { Sql } from "./client";

export type AppDatabaseRow = {
  projectId: string;
  kind: "postgres" | "embedded";
  name: string;
  role: string;
  readOnly: boolean;
  sizeBytes: number | null;
  createdAt: Date;
};

const columns = (sql: Sql) =>
  sql`project_id as "projectId", kind, name, role, read_only as "readOnly", size_bytes::float8 as "sizeBytes", created_at as "createdAt"`;

export async function findAppDatabase(sql: Sql, projectId: string): Promise<AppDatabaseRow | null> {
  const [row] = await sql<AppDatabaseRow[]>`select ${columns(sql)} from app_databases where project_id = ${projectId}`;
  return row ?? null;
}

/** Records the database (first writer wins) and returns the row as stored. */
export async function insertAppDatabase(sql: Sql, row: Pick<AppDatabaseRow, "projectId" | "kind" | "name" | "role">): Promise<AppDatabaseRow> {
  await sql`insert into app_databases (project_id, kind, name, role) values (${row.projectId}, ${row.kind}, ${row.name}, ${row.role}) on conflict (project_id) do nothing`;
  return (await findAppDatabase(sql, row.projectId))!;
}

export async function recordAppDatabaseSize(sql: Sql, projectId: string, sizeBytes: number, readOnly: boolean): Promise<void> {
  await sql`update app_databases set size_bytes = ${sizeBytes}, read_only = ${readOnly} where project_id = ${projectId}`;
}

export async function deleteAppDatabase(sql: Sql, projectId: string): Promise<void> {
  await sql`delete from app_databases where project_id = ${projectId}`;
}
