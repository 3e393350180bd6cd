/** Queries on `project_members`: the people in a project besides its owner, by e-mail (lower-cased). */
import type { Sql } from "./client";

export type MemberRole = "viewer" | "editor";
export type MemberRow = { email: string; userId: string | null; role: MemberRole; name: string | null };

export async function listMembers(sql: Sql, projectId: string): Promise<MemberRow[]> {
  return sql<MemberRow[]>`
    select m.email, m.user_id as "userId", m.role, u.display_name as name
    from project_members m left join users u on u.id = m.user_id
    where m.project_id = ${projectId}
    order by m.created_at, m.email`;
}

export async function findMember(sql: Sql, projectId: string, email: string): Promise<MemberRow | null> {
  const [row] = await sql<MemberRow[]>`
    select m.email, m.user_id as "userId", m.role, u.display_name as name
    from project_members m left join users u on u.id = m.user_id
    where m.project_id = ${projectId} and m.email = ${email}`;
  return row ?? null;
}

/**
 * Adds the invitation unless the project already has `max` members (0 = no cap) or this e-mail; the project's
 * row is locked for the count and insert, so parallel invitations on any instance cannot overshoot together.
 */
export async function insertMemberWithinCap(
  sql: Sql,
  m: { projectId: string; email: string; role: MemberRole; invitedBy: string },
  max: number,
): Promise<"added" | "exists" | { full: number }> {
  return sql.begin(async (tx) => {
    const t = tx as unknown as Sql;
    await t`select id from projects where id = ${m.projectId} for update`;
    if (max > 0) {
      const [row] = await t<{ count: number }[]>`select count(*)::int as count from project_members where project_id = ${m.projectId}`;
      if (row!.count >= max) return { full: row!.count };
    }
    const inserted = await t`
      insert into project_members (project_id, email, role, invited_by)
      values (${m.projectId}, ${m.email}, ${m.role}, ${m.invitedBy})
      on conflict do nothing returning email`;
    return inserted.length ? "added" : "exists";
  });
}

export async function setMemberRole(sql: Sql, projectId: string, email: string, role: MemberRole): Promise<MemberRow | null> {
  const [row] = await sql<{ email: string }[]>`
    update project_members set role = ${role}, updated_at = now() where project_id = ${projectId} and email = ${email} returning email`;
  return row ? findMember(sql, projectId, email) : null;
}

export async function deleteMember(sql: Sql, projectId: string, email: string): Promise<{ userId: string | null } | null> {
  const [row] = await sql<{ userId: string | null }[]>`
    delete from project_members where project_id = ${projectId} and email = ${email} returning user_id as "userId"`;
  return row ?? null;
}

/** Every invitation to `email` becomes the user's membership (they signed in with it, verified). Returns the projects. */
export async function activateInvitations(sql: Sql, email: string, userId: string): Promise<string[]> {
  const rows = await sql<{ projectId: string }[]>`
    update project_members m set user_id = ${userId}, updated_at = now()
    where m.email = ${email} and m.user_id is null
      and not exists (select 1 from projects p where p.id = m.project_id and p.owner_id = ${userId})
      and not exists (select 1 from project_members o where o.project_id = m.project_id and o.user_id = ${userId})
    returning m.project_id as "projectId"`;
  return rows.map((r) => r.projectId);
}

/**
 * Hands the project to the active member `email`: they become the owner (their member row goes), the old owner
 * becomes an editor under `oldOwnerEmail`. One transaction, the project's row locked: false when the member is
 * not active (any more) or the project's owner changed meanwhile.
 */
export async function transferOwnership(
  sql: Sql,
  t: { projectId: string; fromUserId: string; toEmail: string; oldOwnerEmail: string },
): Promise<{ toUserId: string } | null> {
  return sql.begin(async (tx) => {
    const q = tx as unknown as Sql;
    const [project] = await q<{ ownerId: string }[]>`select owner_id as "ownerId" from projects where id = ${t.projectId} for update`;
    if (project?.ownerId !== t.fromUserId) return null;
    const [member] = await q<{ userId: string | null }[]>`
      delete from project_members where project_id = ${t.projectId} and email = ${t.toEmail} and user_id is not null
      returning user_id as "userId"`;
    if (!member?.userId) return null;
    await q`update projects set owner_id = ${member.userId} where id = ${t.projectId}`;
    await q`
      insert into project_members (project_id, email, user_id, role, invited_by)
      values (${t.projectId}, ${t.oldOwnerEmail}, ${t.fromUserId}, 'editor', ${member.userId})
      on conflict (project_id, email) do update set user_id = excluded.user_id, role = 'editor', updated_at = now()`;
    return { toUserId: member.userId };
  });
}

export type SharedProjectRow = {
  id: string;
  name: string;
  description: string | null;
  updatedAt: Date;
  role: MemberRole;
  ownerName: string | null;
  ownerEmail: string | null;
};

/** The projects the user is an active member of (not their own), newest change first. */
export async function listSharedProjects(sql: Sql, userId: string): Promise<SharedProjectRow[]> {
  return sql<SharedProjectRow[]>`
    select p.id, p.name, p.description, p.updated_at as "updatedAt", m.role, u.display_name as "ownerName", u.email as "ownerEmail"
    from project_members m
    join projects p on p.id = m.project_id
    join users u on u.id = p.owner_id
    where m.user_id = ${userId}
    order by p.updated_at desc, p.id`;
}
