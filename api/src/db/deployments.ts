/**
 * Queries on `deployments` and `sites`. A deployment's API status is read together with its project's site:
 * 'ready' and pointed at by `sites.live_deployment_id` is live, 'ready' otherwise is superseded.
 */
import type { DeploymentStatus } from "@shared/schemas/publish";
import type { ScanFinding } from "@shared/schemas/responses";
import type { Sql } from "./client";
import type { Manifest } from "./versions";

export type DeploymentState = "building" | "ready" | "failed";

export type DeploymentRow = {
  id: string;
  projectId: string;
  versionId: string | null;
  state: DeploymentState;
  bytes: number;
  buildLog: string;
  createdAt: Date;
  live: boolean;
  /** The site name this build renames the site to when it goes live (null: it keeps the site's name). */
  slug: string | null;
  /** What the client-file scan found (null: nothing, or not scanned); `findingsAllowed`: it went live with them. */
  scanFindings: ScanFinding[] | null;
  findingsAllowed: boolean;
  /** Static files, or a server run in a sandbox of its own (its `files` are then its source). */
  kind: DeploymentKind;
};

export type DeploymentKind = "static" | "server";

export type SiteRow = { projectId: string; slug: string; liveDeploymentId: string | null };

/** What the site server needs to answer a host: the live deployment's files. */
export type LiveSiteRow = { projectId: string; ownerId: string; slug: string; deploymentId: string; kind: DeploymentKind; files: Manifest };

export const statusOf = (d: Pick<DeploymentRow, "state" | "live">): DeploymentStatus =>
  d.state === "building" ? "building" : d.state === "failed" ? "failed" : d.live ? "live" : "superseded";

const UNIQUE_VIOLATION = "23505";
export const isUniqueViolation = (error: unknown, constraint?: string) =>
  (error as { code?: string }).code === UNIQUE_VIOLATION &&
  (constraint === undefined || (error as { constraint_name?: string }).constraint_name === constraint);

type Raw = Omit<DeploymentRow, "bytes"> & { bytes: number | string };
const toRow = (r: Raw): DeploymentRow => ({ ...r, bytes: Number(r.bytes) });

const columns = (sql: Sql) => sql`
  d.id, d.project_id as "projectId", d.version_id as "versionId", d.state, d.bytes::float8 as bytes,
  d.build_log as "buildLog", d.created_at as "createdAt", coalesce(s.live_deployment_id = d.id, false) as live, d.slug,
  d.scan_findings as "scanFindings", d.findings_allowed as "findingsAllowed", d.kind`;

/** Newest first. */
export async function listDeployments(sql: Sql, projectId: string, limit = 50): Promise<DeploymentRow[]> {
  const rows = await sql<Raw[]>`
    select ${columns(sql)} from deployments d left join sites s on s.project_id = d.project_id
    where d.project_id = ${projectId} order by d.seq desc limit ${limit}`;
  return rows.map(toRow);
}

export async function findDeployment(sql: Sql, projectId: string, id: string): Promise<DeploymentRow | null> {
  const [row] = await sql<Raw[]>`
    select ${columns(sql)} from deployments d left join sites s on s.project_id = d.project_id
    where d.project_id = ${projectId} and d.id = ${id}`;
  return row ? toRow(row) : null;
}

/**
 * Starts a build: one 'building' row per project (a unique index), so a second build anywhere answers
 * false. A build left 'building' longer than `staleSeconds` belonged to an instance that died: it is
 * marked failed first.
 */
export async function startBuild(sql: Sql, d: { id: string; projectId: string; versionId: string | null }, staleSeconds: number): Promise<boolean> {
  await sql`
    update deployments set state = 'failed', finished_at = now(),
      build_log = build_log || E'\nThe build was abandoned (its server stopped).'
    where project_id = ${d.projectId} and state = 'building' and created_at < now() - make_interval(secs => ${staleSeconds})`;
  try {
    await sql`insert into deployments (id, project_id, version_id, state) values (${d.id}, ${d.projectId}, ${d.versionId}, 'building')`;
    return true;
  } catch (error) {
    if (isUniqueViolation(error)) return false;
    throw error;
  }
}

/** Removes a build row that never started (its publish was refused after taking the lock). */
export async function dropBuild(sql: Sql, id: string): Promise<void> {
  await sql`delete from deployments where id = ${id} and state = 'building'`;
}

export async function failBuild(sql: Sql, id: string, log: string): Promise<void> {
  await sql`update deployments set state = 'failed', build_log = ${log}, finished_at = now() where id = ${id} and state = 'building'`;
}

/** Keeps what the client-file scan found on the build, and whether it goes live with them (allowFindings). */
export async function recordFindings(sql: Sql, id: string, findings: ScanFinding[], allowed: boolean): Promise<void> {
  await sql`update deployments set scan_findings = ${sql.json(findings as never)}, findings_allowed = ${allowed} where id = ${id}`;
}

/** Records the name a build renames the site to; the site keeps its current one until the build is live. */
export async function setBuildSlug(sql: Sql, id: string, slug: string): Promise<void> {
  await sql`update deployments set slug = ${slug} where id = ${id} and state = 'building'`;
}

export type FinishedBuild = { slug: string | null; previousSlug: string | null } | "slug-taken";

/**
 * Marks the build ready with its files and makes it the site's live deployment, in one transaction, taking
 * the build's new site name (`deployments.slug`) in the same step. Answers the site's name before and after
 * (null when the project has no site), or "slug-taken" when another site took the new name while this one
 * built: then nothing changed.
 */
export async function finishBuild(
  sql: Sql,
  d: { id: string; projectId: string; files: Manifest; bytes: number; log: string; kind?: DeploymentKind; migrations?: string[] },
): Promise<FinishedBuild> {
  try {
    return await sql.begin(async (tx) => {
      const q = tx as unknown as Sql;
      const [site] = await q<{ slug: string }[]>`select slug from sites where project_id = ${d.projectId} for update`;
      const [row] = await q<{ slug: string | null }[]>`
        update deployments set state = 'ready', files = ${q.json(d.files as never)}, bytes = ${d.bytes}, build_log = ${d.log}, finished_at = now(),
          kind = ${d.kind ?? "static"}, migrations = ${q.json((d.migrations ?? []) as never)}
        where id = ${d.id} returning slug`;
      if (!site) return { slug: null, previousSlug: null };
      const slug = row?.slug ?? site.slug;
      await q`update sites set live_deployment_id = ${d.id}, slug = ${slug}, updated_at = now() where project_id = ${d.projectId}`;
      return { slug, previousSlug: site.slug };
    });
  } catch (error) {
    if (isUniqueViolation(error, "sites_slug_key")) return "slug-taken";
    throw error;
  }
}

export async function findSite(sql: Sql, projectId: string): Promise<SiteRow | null> {
  const [row] = await sql<SiteRow[]>`
    select project_id as "projectId", slug, live_deployment_id as "liveDeploymentId" from sites where project_id = ${projectId}`;
  return row ?? null;
}

/**
 * Makes the project's site with this slug (its first publish; a rename goes through setBuildSlug and
 * finishBuild). Returns false when another project has the slug, or the project has a site already.
 */
export async function claimSlug(sql: Sql, projectId: string, slug: string): Promise<boolean> {
  try {
    const rows = await sql`
      insert into sites (project_id, slug) values (${projectId}, ${slug})
      on conflict (project_id) do nothing returning 1`;
    return rows.length > 0;
  } catch (error) {
    if (isUniqueViolation(error)) return false;
    throw error;
  }
}

export async function slugTaken(sql: Sql, slug: string): Promise<boolean> {
  const [row] = await sql`select 1 from sites where slug = ${slug}`;
  return Boolean(row);
}

/** Points the site at a ready deployment of the project; false when it is not one. */
export async function activate(sql: Sql, projectId: string, deploymentId: string): Promise<boolean> {
  const rows = await sql`
    update sites set live_deployment_id = ${deploymentId}, updated_at = now()
    where project_id = ${projectId}
      and exists (select 1 from deployments where id = ${deploymentId} and project_id = ${projectId} and state = 'ready')
    returning 1`;
  return rows.length > 0;
}

/** Removes the project's site (its slug is free again); returns the slug it had. */
export async function deleteSite(sql: Sql, projectId: string): Promise<string | null> {
  const [row] = await sql<{ slug: string }[]>`delete from sites where project_id = ${projectId} returning slug`;
  return row?.slug ?? null;
}

export async function findLiveSite(sql: Sql, slug: string): Promise<LiveSiteRow | null> {
  const [row] = await sql<LiveSiteRow[]>`
    select s.project_id as "projectId", p.owner_id as "ownerId", s.slug, d.id as "deploymentId", d.kind, d.files
    from sites s join deployments d on d.id = s.live_deployment_id join projects p on p.id = s.project_id
    where s.slug = ${slug} and d.state = 'ready'`;
  return row ?? null;
}

export async function listLiveSites(sql: Sql, ownerId: string): Promise<{ projectId: string; slug: string }[]> {
  return sql<{ projectId: string; slug: string }[]>`
    select s.project_id as "projectId", s.slug from sites s join projects p on p.id = s.project_id
    where p.owner_id = ${ownerId} and s.live_deployment_id is not null`;
}

/** The version a deployment was built from, for "Unpublished changes". */
export async function liveVersionId(sql: Sql, projectId: string): Promise<string | null | undefined> {
  const [row] = await sql<{ versionId: string | null }[]>`
    select d.version_id as "versionId" from sites s join deployments d on d.id = s.live_deployment_id where s.project_id = ${projectId}`;
  return row ? row.versionId : undefined;
}

/** Deletes finished deployments past the newest `keep` of the project, never the live one nor a build. */
export async function pruneDeployments(sql: Sql, projectId: string, keep: number): Promise<number> {
  const rows = await sql`
    delete from deployments d using (
      select id, row_number() over (order by seq desc) as rank from deployments where project_id = ${projectId}
    ) ranked
    where d.id = ranked.id and ranked.rank > ${keep} and d.state <> 'building'
      and not exists (select 1 from sites s where s.live_deployment_id = d.id)
    returning d.id`;
  return rows.length;
}
