/**
 * Queries on `share_links` (links that open a project's live preview without signing in) and the preview
 * proxy's per-request checks. Only a token's SHA-256 is stored; a revoked link's row is deleted.
 */
import type { Sql } from "./client";

export type ShareLinkRow = { id: string; createdAt: Date; expiresAt: Date | null; createdBy: string | null; creatorName: string | null };

export async function insertShareLink(
  sql: Sql,
  l: { id: string; projectId: string; tokenHash: string; createdBy: string; expiresAt: Date | null },
): Promise<ShareLinkRow> {
  const [row] = await sql<ShareLinkRow[]>`
    insert into share_links (id, project_id, token_hash, created_by, expires_at)
    values (${l.id}, ${l.projectId}, ${l.tokenHash}, ${l.createdBy}, ${l.expiresAt})
    returning id, created_at as "createdAt", expires_at as "expiresAt", created_by as "createdBy", null as "creatorName"`;
  return row!;
}

/** The project's links that still work (expired ones are left out: they open nothing). */
export async function listShareLinks(sql: Sql, projectId: string): Promise<ShareLinkRow[]> {
  return sql<ShareLinkRow[]>`
    select s.id, s.created_at as "createdAt", s.expires_at as "expiresAt", s.created_by as "createdBy", u.display_name as "creatorName"
    from share_links s left join users u on u.id = s.created_by
    where s.project_id = ${projectId} and (s.expires_at is null or s.expires_at > now())
    order by s.created_at desc, s.id`;
}

/** Deletes the link; false when the project has no such link. */
export async function deleteShareLink(sql: Sql, projectId: string, id: string): Promise<boolean> {
  const result = await sql`delete from share_links where id = ${id} and project_id = ${projectId}`;
  return result.count > 0;
}

/** The live link with this token hash: its id, project and the project's owner. */
export async function findLiveShareLink(sql: Sql, tokenHash: string): Promise<{ id: string; projectId: string; ownerId: string } | null> {
  const [row] = await sql<{ id: string; projectId: string; ownerId: string }[]>`
    select s.id, s.project_id as "projectId", p.owner_id as "ownerId"
    from share_links s join projects p on p.id = s.project_id
    where s.token_hash = ${tokenHash} and (s.expires_at is null or s.expires_at > now())`;
  return row ?? null;
}

/** Whether the link is live and its project's sandbox is this one (one indexed read per proxied request). */
export async function linkSeesSandbox(sql: Sql, linkId: string, projectId: string, sandboxId: string): Promise<boolean> {
  const rows = await sql`
    select 1 from share_links s join projects p on p.id = s.project_id
    where s.id = ${linkId} and p.id = ${projectId} and p.sandbox_id = ${sandboxId} and (s.expires_at is null or s.expires_at > now())`;
  return rows.length > 0;
}

/** Whether the user is the owner or an active member of the project whose sandbox this is (any role may view). */
export async function userSeesSandbox(sql: Sql, userId: string, projectId: string, sandboxId: string): Promise<boolean> {
  const rows = await sql`
    select 1 from projects p
    where p.id = ${projectId} and p.sandbox_id = ${sandboxId}
      and (p.owner_id = ${userId} or exists (select 1 from project_members m where m.project_id = p.id and m.user_id = ${userId}))`;
  return rows.length > 0;
}
