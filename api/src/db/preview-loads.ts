/**
 * Queries behind `preview_loads`: when a project's preview pages last reported in and the newest load they
 * ran. Times come from the caller (the server's clock when the page's ping arrived).
 */
import type { Sql } from "./client";

export type PreviewLoadRow = { seenAt: Date; loadedAt: Date };

/**
 * Notes a ping from a preview page; each time only moves forward (pages of one project may report out of order).
 * Returns the time before which a page's code is asked to reload (`askPreviewReload`), or null.
 */
export async function recordPreviewLoad(sql: Sql, projectId: string, seenAt: Date, loadedAt: Date): Promise<Date | null> {
  const [row] = await sql<{ reloadBefore: Date | null }[]>`
    insert into preview_loads as l (project_id, seen_at, loaded_at) values (${projectId}, ${seenAt}, ${loadedAt})
    on conflict (project_id) do update set
      seen_at = greatest(l.seen_at, excluded.seen_at),
      loaded_at = greatest(l.loaded_at, excluded.loaded_at)
    returning reload_before as "reloadBefore"`;
  return row?.reloadBefore ? new Date(row.reloadBefore) : null;
}

/** Asks the project's preview pages running code that started loading before `before` to reload (moves forward only). */
export async function askPreviewReload(sql: Sql, projectId: string, before: Date): Promise<void> {
  await sql`
    update preview_loads set reload_before = greatest(coalesce(reload_before, ${before}), ${before})
    where project_id = ${projectId}`;
}

export async function findPreviewLoad(sql: Sql, projectId: string): Promise<PreviewLoadRow | null> {
  const [row] = await sql<PreviewLoadRow[]>`select seen_at as "seenAt", loaded_at as "loadedAt" from preview_loads where project_id = ${projectId}`;
  return row ? { seenAt: new Date(row.seenAt), loadedAt: new Date(row.loadedAt) } : null;
}
