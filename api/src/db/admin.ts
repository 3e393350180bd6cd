/**
 * What the admin page reads across every user: the users with their projects and this month's tokens, the
 * running sandboxes and answers with the instance recorded for each, and the live sites. Read-only; the
 * actions go through the services that own each thing.
 */
import type { Sql } from "./client";

export type AdminUserRow = {
  id: string;
  email: string | null;
  name: string | null;
  createdAt: Date;
  lastSignInAt: Date | null;
  disabledAt: Date | null;
  tokensThisMonth: number;
  projects: { id: string; name: string }[];
};

/** Every user, newest first, with the projects they own (newest first) and their tokens this UTC month. */
export async function listUsers(sql: Sql, limit = 1000): Promise<AdminUserRow[]> {
  const rows = await sql<(Omit<AdminUserRow, "tokensThisMonth"> & { tokensThisMonth: string | null })[]>`
    select u.id, u.email, u.display_name as name, u.created_at as "createdAt", u.last_sign_in_at as "lastSignInAt",
      u.disabled_at as "disabledAt", t.tokens::text as "tokensThisMonth",
      coalesce((select json_agg(json_build_object('id', p.id, 'name', p.name) order by p.updated_at desc)
                from projects p where p.owner_id = u.id), '[]'::json) as projects
    from users u
    left join user_token_usage t on t.user_id = u.id and t.month = (date_trunc('month', now() at time zone 'utc'))::date
    order by u.created_at desc, u.id
    limit ${limit}`;
  return rows.map((r) => ({ ...r, tokensThisMonth: Number(r.tokensThisMonth ?? 0) }));
}

export type RunningSandboxRow = {
  projectId: string;
  projectName: string;
  ownerId: string;
  ownerEmail: string | null;
  sandboxId: string;
  instance: string | null;
  usedAt: Date | null;
};

/** Sandboxes whose lease is live (an instance holds them), with the instance that last renewed it. */
export async function listRunningSandboxes(sql: Sql): Promise<RunningSandboxRow[]> {
  return sql<RunningSandboxRow[]>`
    select p.id as "projectId", p.name as "projectName", p.owner_id as "ownerId", u.email as "ownerEmail",
      p.sandbox_id as "sandboxId", p.sandbox_instance as instance, p.sandbox_used_at as "usedAt"
    from projects p join users u on u.id = p.owner_id
    where p.sandbox_id is not null and p.sandbox_running_until >= now()
    order by p.sandbox_instance nulls last, p.sandbox_used_at desc nulls last`;
}

export type RunningAnswerRow = {
  projectId: string;
  projectName: string;
  ownerId: string;
  ownerEmail: string | null;
  messageId: string;
  instance: string | null;
  startedAt: Date;
  updatedAt: Date;
};

/** Answers being written (a 'running' message), with the instance that claimed each. */
export async function listRunningAnswers(sql: Sql): Promise<RunningAnswerRow[]> {
  return sql<RunningAnswerRow[]>`
    select m.project_id as "projectId", p.name as "projectName", p.owner_id as "ownerId", u.email as "ownerEmail",
      m.id as "messageId", m.run_instance as instance, m.created_at as "startedAt", m.updated_at as "updatedAt"
    from messages m join projects p on p.id = m.project_id join users u on u.id = p.owner_id
    where m.status = 'running'
    order by m.run_instance nulls last, m.created_at`;
}

export type LiveSiteRow = { projectId: string; projectName: string; ownerEmail: string | null; slug: string; publishedAt: Date | null };

/** Every live site (a ready deployment is pointed at), most recently published first. */
export async function listLiveSites(sql: Sql): Promise<LiveSiteRow[]> {
  return sql<LiveSiteRow[]>`
    select s.project_id as "projectId", p.name as "projectName", u.email as "ownerEmail", s.slug,
      d.finished_at as "publishedAt"
    from sites s join projects p on p.id = s.project_id join users u on u.id = p.owner_id
    join deployments d on d.id = s.live_deployment_id
    order by d.finished_at desc nulls last`;
}

/** The project's owner and recorded sandbox, or null when there is no such project. */
export async function findProjectSandbox(sql: Sql, projectId: string): Promise<{ ownerId: string; sandboxId: string | null } | null> {
  const [row] = await sql<{ ownerId: string; sandboxId: string | null }[]>`
    select owner_id as "ownerId", sandbox_id as "sandboxId" from projects where id = ${projectId}`;
  return row ?? null;
}

/** The user's projects that record a sandbox (to stop them when the user is disabled). */
export async function ownedSandboxes(sql: Sql, ownerId: string): Promise<{ projectId: string; sandboxId: string }[]> {
  return sql<{ projectId: string; sandboxId: string }[]>`
    select id as "projectId", sandbox_id as "sandboxId" from projects where owner_id = ${ownerId} and sandbox_id is not null`;
}

/** The projects of the user's with an answer being written, and the instance that claimed each. */
export async function ownedRunningAnswers(sql: Sql, ownerId: string): Promise<{ projectId: string; instance: string | null }[]> {
  return sql<{ projectId: string; instance: string | null }[]>`
    select m.project_id as "projectId", m.run_instance as instance
    from messages m join projects p on p.id = m.project_id
    where p.owner_id = ${ownerId} and m.status = 'running'`;
}

/** Whether the project has an answer being written (on any instance). */
export async function hasRunningAnswer(sql: Sql, projectId: string): Promise<boolean> {
  const rows = await sql`select 1 from messages where project_id = ${projectId} and status = 'running' limit 1`;
  return rows.length > 0;
}
