/**
 * Queries on `project_domains`: a project's own domains, pending or verified. A name may be pending in several
 * projects, verified in one at most (a partial unique index); the site server reads every verified one.
 */
import type { Sql } from "./client";
import { isUniqueViolation } from "./deployments";

export type DomainRow = { projectId: string; domain: string; txtValue: string; verifiedAt: Date | null; createdAt: Date };

const columns = (sql: Sql) => sql`project_id as "projectId", domain, txt_value as "txtValue", verified_at as "verifiedAt", created_at as "createdAt"`;

export async function listDomains(sql: Sql, projectId: string): Promise<DomainRow[]> {
  return sql<DomainRow[]>`select ${columns(sql)} from project_domains where project_id = ${projectId} order by created_at, domain`;
}

export async function findDomain(sql: Sql, projectId: string, domain: string): Promise<DomainRow | null> {
  const [row] = await sql<DomainRow[]>`select ${columns(sql)} from project_domains where project_id = ${projectId} and domain = ${domain}`;
  return row ?? null;
}

/** The project holding `domain` verified, other than `exceptProjectId`; null when none does. */
export async function verifiedElsewhere(sql: Sql, domain: string, exceptProjectId: string): Promise<string | null> {
  const [row] = await sql<{ projectId: string }[]>`
    select project_id as "projectId" from project_domains where domain = ${domain} and verified_at is not null and project_id <> ${exceptProjectId}`;
  return row?.projectId ?? null;
}

/**
 * Adds a pending domain, unless the project holds `max` already. Answers the row (the existing one when the
 * project asked for this name before) or "full".
 */
export async function insertDomain(
  sql: Sql,
  d: { projectId: string; domain: string; txtValue: string; max: number },
): Promise<{ row: DomainRow; created: boolean } | "full"> {
  const existing = await findDomain(sql, d.projectId, d.domain);
  if (existing) return { row: existing, created: false };
  const rows = await sql<DomainRow[]>`
    insert into project_domains (project_id, domain, txt_value)
    select ${d.projectId}, ${d.domain}, ${d.txtValue}
    where (select count(*) from project_domains where project_id = ${d.projectId}) < ${d.max}
    on conflict (project_id, domain) do nothing
    returning ${columns(sql)}`;
  if (rows[0]) return { row: rows[0], created: true };
  const again = await findDomain(sql, d.projectId, d.domain);
  return again ? { row: again, created: false } : "full";
}

/** Marks it verified; "taken" when another project verified the same name first (the unique index). */
export async function markVerified(sql: Sql, projectId: string, domain: string): Promise<DomainRow | "taken" | null> {
  try {
    const [row] = await sql<DomainRow[]>`
      update project_domains set verified_at = coalesce(verified_at, now())
      where project_id = ${projectId} and domain = ${domain} returning ${columns(sql)}`;
    return row ?? null;
  } catch (error) {
    if (isUniqueViolation(error)) return "taken";
    throw error;
  }
}

export async function deleteDomain(sql: Sql, projectId: string, domain: string): Promise<boolean> {
  const rows = await sql`delete from project_domains where project_id = ${projectId} and domain = ${domain} returning 1`;
  return rows.length > 0;
}

/** Every verified domain with the slug of its project's site (null when the project has no site). */
export async function verifiedDomainSlugs(sql: Sql): Promise<{ domain: string; slug: string | null }[]> {
  return sql<{ domain: string; slug: string | null }[]>`
    select d.domain, s.slug from project_domains d left join sites s on s.project_id = d.project_id where d.verified_at is not null`;
}

/** Whether a certificate may be asked for `host`: a verified domain, or a site name with a live deployment. */
export async function isServedHost(sql: Sql, host: string, sitesDomain: string): Promise<boolean> {
  const slug = host.endsWith(`.${sitesDomain}`) ? host.slice(0, -sitesDomain.length - 1) : null;
  const [row] = await sql`
    select 1 from project_domains where domain = ${host} and verified_at is not null
    union all
    select 1 from sites where slug = ${slug ?? ""} and live_deployment_id is not null
    limit 1`;
  return Boolean(row);
}
