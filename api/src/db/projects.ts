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

/** The project by id alone, for work already holding a checked access value (services/access.ts). */
export async function findProjectById(sql: Sql, id: string): Promise<Project | null> {
  const [row] = await sql<ProjectRow[]>`select ${columns(sql)} from projects where id = ${id}`;
  return row ? toProject(row) : null;
}

/** The project and the user's role in it (its owner, or an active member's role), or null when they have none. */
export async function findProjectWithRole(
  sql: Sql,
  userId: string,
  id: string,
): Promise<{ project: Project; ownerId: string; role: "owner" | "editor" | "viewer" } | null> {
  const [row] = await sql<(ProjectRow & { ownerId: string; role: "owner" | "editor" | "viewer" })[]>`
    select p.id, p.name, p.description, p.sandbox_id as "sandboxId", p.sandbox_url as "sandboxUrl",
      p.workflow_command as "workflowCommand", p.created_at as "createdAt", p.updated_at as "updatedAt",
      p.owner_id as "ownerId", case when p.owner_id = ${userId} then 'owner' else m.role end as role
    from projects p left join project_members m on m.project_id = p.id and m.user_id = ${userId}
    where p.id = ${id} and (p.owner_id = ${userId} or m.user_id is not null)`;
  if (!row) return null;
  const { ownerId, role, ...project } = row;
  return { project: toProject(project), ownerId, role };
}

/**
 * The caller's role in the project a file is in, read in one query with the file's project (routes that address
 * a file by its id alone: a file save is one round trip to the database shorter than a lookup and then a check).
 */
export async function findFileProjectRole(
  sql: Sql,
  userId: string,
  fileId: string,
): Promise<{ projectId: string; ownerId: string; role: "owner" | "editor" | "viewer" } | null> {
  const [row] = await sql<{ projectId: string; ownerId: string; role: "owner" | "editor" | "viewer" }[]>`
    select p.id as "projectId", p.owner_id as "ownerId", case when p.owner_id = ${userId} then 'owner' else m.role end as role
    from files f join projects p on p.id = f.project_id
      left join project_members m on m.project_id = p.id and m.user_id = ${userId}
    where f.id = ${fileId} and (p.owner_id = ${userId} or m.user_id is not null)`;
  return row ?? null;
}

export async function insertProject(sql: Sql, p: { id: string; ownerId: string; name: string; description: string | null }): Promise<Project> {
  const [row] = await sql<ProjectRow[]>`
    insert into projects (id, owner_id, name, description)
    values (${p.id}, ${p.ownerId}, ${p.name}, ${p.description})
    returning ${columns(sql)}`;
  return toProject(row!);
}

/**
 * Inserts the project unless its owner already has `max` (0 = no cap); returns null when at the cap.
 * The owner's row is locked for the count and insert, so parallel creations (on any instance) cannot
 * overshoot together.
 */
export async function insertProjectWithinCap(
  sql: Sql,
  p: { id: string; ownerId: string; name: string; description: string | null },
  max: number,
): Promise<{ project: Project } | { count: number }> {
  return sql.begin(async (tx) => {
    const t = tx as unknown as Sql;
    if (max > 0) {
      await t`select id from users where id = ${p.ownerId} for update`;
      const [row] = await t<{ count: number }[]>`select count(*)::int as count from projects where owner_id = ${p.ownerId}`;
      if (row!.count >= max) return { count: row!.count };
    }
    return { project: await insertProject(t, p) };
  });
}

/** Deletes the project (messages and file rows cascade). Returns its sandbox id, or false when it was not the owner's. */
export async function deleteProject(sql: Sql, ownerId: string, id: string): Promise<{ sandboxId: string | null } | false> {
  const [row] = await sql<{ sandboxId: string | null }[]>`delete from projects where id = ${id} and owner_id = ${ownerId} returning sandbox_id as "sandboxId"`;
  return row ?? false;
}

/** Marks the project as changed now (file writes and messages move it up the list). */
export async function touchProject(sql: Sql, id: string): Promise<void> {
  await sql`update projects set updated_at = now() where id = ${id}`;
}

/** The project's chosen model (null: the server's default). Not scoped by owner: callers checked it. */
export async function findProjectModel(sql: Sql, id: string): Promise<string | null> {
  const [row] = await sql<{ model: string | null }[]>`select model from projects where id = ${id}`;
  return row?.model ?? null;
}

/** Not scoped by owner: callers hold a checked access (services/access.ts). */
export async function setProjectModel(sql: Sql, id: string, model: string): Promise<boolean> {
  const rows = await sql`update projects set model = ${model} where id = ${id} returning id`;
  return rows.length > 0;
}
