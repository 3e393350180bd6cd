/**
 * Rows of app_databases: which project database exists (development, and production from the first server
 * publish), where, and whether it is over its size limit.
 */
import type { Sql } from "./client";

/** Development is the agent's and the preview's; production is the published server's (issue 22). */
export type DatabaseEnvironment = "development" | "production";

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

export async function findAppDatabase(sql: Sql, projectId: string, env: DatabaseEnvironment = "development"): Promise<AppDatabaseRow | null> {
  const [row] = await sql<AppDatabaseRow[]>`select ${columns(sql)} from app_databases where project_id = ${projectId} and environment = ${env}`;
  return row ?? null;
}

/** Records the database (first writer wins) and returns the row as stored. */
export async function insertAppDatabase(
  sql: Sql,
  row: Pick<AppDatabaseRow, "projectId" | "kind" | "name" | "role">,
  env: DatabaseEnvironment = "development",
): Promise<AppDatabaseRow> {
  await sql`insert into app_databases (project_id, environment, kind, name, role) values (${row.projectId}, ${env}, ${row.kind}, ${row.name}, ${row.role})
    on conflict (project_id, environment) do nothing`;
  return (await findAppDatabase(sql, row.projectId, env))!;
}

export async function recordAppDatabaseSize(
  sql: Sql,
  projectId: string,
  sizeBytes: number,
  readOnly: boolean,
  env: DatabaseEnvironment = "development",
): Promise<void> {
  await sql`update app_databases set size_bytes = ${sizeBytes}, read_only = ${readOnly} where project_id = ${projectId} and environment = ${env}`;
}

export async function deleteAppDatabase(sql: Sql, projectId: string, env: DatabaseEnvironment = "development"): Promise<void> {
  await sql`delete from app_databases where project_id = ${projectId} and environment = ${env}`;
}
