/** Queries on `project_activity`: who did what in a project, newest first. */
import type { Sql } from "./client";

export type ActivityRow = {
  id: string;
  kind: string;
  detail: Record<string, unknown>;
  createdAt: Date;
  actorId: string | null;
  actorName: string | null;
  actorEmail: string | null;
};

export async function insertActivity(sql: Sql, a: { projectId: string; actorId: string; kind: string; detail: Record<string, unknown> }): Promise<void> {
  // A time-ordered id (UUIDv7, monotonic in this process) breaks ties between entries written in the same
  // millisecond (PGlite's clock), so the list reads in the order things happened.
  await sql`
    insert into project_activity (id, project_id, actor_id, kind, detail)
    values (${Bun.randomUUIDv7()}, ${a.projectId}, ${a.actorId}, ${a.kind}, ${sql.json(a.detail as never)})`;
}

export async function listActivity(sql: Sql, projectId: string, limit: number): Promise<ActivityRow[]> {
  return sql<ActivityRow[]>`
    select a.id, a.kind, a.detail, a.created_at as "createdAt", a.actor_id as "actorId", u.display_name as "actorName", u.email as "actorEmail"
    from project_activity a left join users u on u.id = a.actor_id
    where a.project_id = ${projectId}
    order by a.created_at desc, a.id desc
    limit ${limit}`;
}
