/**
 * Queries on `uploads`: chat images by project, so their bytes count toward the project's size limit and
 * those never attached to a sent message can be found and deleted.
 */
import type { Sql } from "./client";

export async function insertUpload(sql: Sql, u: { projectId: string; name: string; size: number }): Promise<void> {
  await sql`insert into uploads (project_id, name, size) values (${u.projectId}, ${u.name}, ${u.size})`;
}

/** Marks these uploads of the project as attached to a sent message: they are kept from now on. */
export async function markUploadsAttached(sql: Sql, projectId: string, names: string[]): Promise<void> {
  if (names.length === 0) return;
  await sql`update uploads set attached_at = now() where project_id = ${projectId} and name in ${sql(names)} and attached_at is null`;
}

/**
 * Deletes up to `limit` rows of uploads never attached and older than `olderThanSeconds`, returning them.
 * Meant to run inside a transaction that also deletes their objects: a row is returned to one deleter only,
 * and a failed object delete rolls its row back for the next sweep.
 */
export async function deleteStaleUploads(sql: Sql, olderThanSeconds: number, limit: number): Promise<{ projectId: string; name: string }[]> {
  return sql<{ projectId: string; name: string }[]>`
    delete from uploads where (project_id, name) in (
      select project_id, name from uploads
      where attached_at is null and created_at < now() - make_interval(secs => ${olderThanSeconds})
      order by created_at limit ${limit} for update skip locked)
    returning project_id as "projectId", name`;
}
