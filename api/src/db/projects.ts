/** Queries on `projects`. Every read and write is scoped by owner, so a foreign id behaves as a missing one. */
import type { Project } from "@shared/schemas/project";
import type { Sql } from "./client";

type ProjectRow = Omit<Project, "createdAt" | "updatedAt"> & { createdAt: Date; updatedAt: Date };

const columns = (sql: Sql) => sql`
  id, name, description, sandbox_id as "sandboxId", sandbox_url as "sandboxUrl",
  workflow_command as "workflowCommand", created_at as "createdAt", updated_at as "updatedAt"`;

export const toProject = (r: ProjectRow): Project => ({
  ...r,
  createdAt: r.createdAt.toISOString(),
  updatedAt: r.updatedAt.toISOString(),
});

export async function listProjects(sql: Sql, ownerId: string): Promise<Project[]> {
  const rows = await sql<ProjectRow[]>`
    select ${columns(sql)} from projects where owner_id = ${ownerId} order by updated_at desc, id`;
  return rows.map(toProject);
}

export async function findProject(sql: Sql, ownerId: string, id: string): Promise<Project | null> {
  const [row] = await sql<ProjectRow[]>`
    select ${columns(sql)} from projects where id = ${id} and owner_id = ${ownerId}`;
  return row ? toProject(row) : null;
}

export async function insertProject(
  sql: Sql,
  p: { id: string; ownerId: string; name: string; description: string | null },
): Promise<Project> {
  const [row] = await sql<ProjectRow[]>`
    insert into projects (id, owner_id, name, description)
    values (${p.id}, ${p.ownerId}, ${p.name}, ${p.description})
    returning ${columns(sql)}`;
  return toProject(row!);
}

/** Deletes the project (messages and file rows cascade). Returns false when it was not the owner's. */
export async function deleteProject(sql: Sql, ownerId: string, id: string): Promise<boolean> {
  const rows = await sql`delete from projects where id = ${id} and owner_id = ${ownerId} returning id`;
  return rows.length > 0;
}

/** Marks the project as changed now (file writes and messages move it up the list). */
export async function touchProject(sql: Sql, id: string): Promise<void> {
  await sql`update projects set updated_at = now() where id = ${id}`;
}
