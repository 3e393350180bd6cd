/**
 * Queries behind the Problems list (`problems` table). Times come from the caller, so an occurrence keeps
 * the time it happened (a log line's stamp) and instances ingesting the same line count it once.
 */
import type { Problem, ProblemSource } from "@shared/schemas/problems";
import type { Sql } from "./client";

export type ProblemOccurrence = {
  key: string;
  source: ProblemSource;
  message: string;
  detail: string | null;
  file: string | null;
  line: number | null;
  seenAt: Date;
  /** When the page that saw it loaded, for a browser report (see `recordOccurrence`). */
  pageLoadedAt?: Date | null;
  /** Seen by the agent's check in its headless browser, not by a preview the user has open. */
  foundByCheck?: boolean;
};

type Row = {
  id: string;
  source: ProblemSource;
  message: string;
  detail: string | null;
  file: string | null;
  line: number | null;
  firstSeen: Date;
  count: number;
  foundByCheck: boolean;
};

const toProblem = (r: Row): Problem => ({
  id: r.id,
  source: r.source,
  message: r.message,
  file: r.file,
  line: r.line,
  firstSeen: new Date(r.firstSeen).toISOString(),
  count: r.count,
  detail: r.detail,
  foundByCheck: r.foundByCheck,
});

/**
 * Records one occurrence: a new row, or one more on the row with the same key (revived when it was stale and
 * this occurrence is newer than the change that made it so, and, for a page's report, the page loaded after
 * that change). Returns whether the list a reader sees changed.
 */
export async function recordOccurrence(sql: Sql, projectId: string, o: ProblemOccurrence): Promise<boolean> {
  const [row] = await sql<{ counted: boolean }[]>`
    insert into problems as p (id, project_id, dedupe_key, source, message, detail, file, line, first_seen, last_seen, found_by_check)
    values (${crypto.randomUUID()}, ${projectId}, ${o.key}, ${o.source}, ${o.message}, ${o.detail}, ${o.file}, ${o.line}, ${o.seenAt}, ${o.seenAt}, ${o.foundByCheck ?? false})
    on conflict (project_id, dedupe_key) do update set
      count = p.count + (case when excluded.last_seen > p.last_seen then 1 else 0 end),
      -- Who saw it last: a crash the check found and the user's preview then shows too is the preview's.
      found_by_check = case when excluded.last_seen >= p.last_seen then excluded.found_by_check else p.found_by_check end,
      last_seen = greatest(p.last_seen, excluded.last_seen),
      stale_since = case
        when p.stale_since is not null and excluded.last_seen >= p.stale_since
          and coalesce(${o.pageLoadedAt ?? null}::timestamptz >= p.stale_since, true) then null
        else p.stale_since end,
      detail = coalesce(excluded.detail, p.detail)
    returning p.last_seen = ${o.seenAt}::timestamptz as counted`;
  return row?.counted ?? false;
}

/** Deletes all but the `keep` most recently seen problems of a project. Returns how many went. */
export async function trimProblems(sql: Sql, projectId: string, keep: number): Promise<number> {
  const result = await sql`
    delete from problems where id in (
      select id from problems where project_id = ${projectId} order by last_seen desc, first_seen desc offset ${keep})`;
  return result.count;
}

/** The project's live problems (stale ones still inside their settle window included), newest first. */
export async function listProblemRows(sql: Sql, projectId: string, limit: number): Promise<Problem[]> {
  const rows = await sql<Row[]>`
    select id, source, message, detail, file, line, first_seen as "firstSeen", count, found_by_check as "foundByCheck"
    from problems where project_id = ${projectId}
    order by last_seen desc, first_seen desc limit ${limit}`;
  return rows.map(toProblem);
}

/**
 * What pages threw at `from` or later (their latest occurrence, not their first) and still hold: a problem
 * made stale by a file change counts only once a page running code newer than that change raised it again.
 */
export async function browserProblemsSeenSince(sql: Sql, projectId: string, from: Date): Promise<Problem[]> {
  const rows = await sql<Row[]>`
    select id, source, message, detail, file, line, first_seen as "firstSeen", count, found_by_check as "foundByCheck"
    from problems where project_id = ${projectId} and source = 'browser' and last_seen >= ${from} and stale_since is null
    order by last_seen desc limit 100`;
  return rows.map(toProblem);
}

/**
 * Marks the project's problems stale as of `at`, the time a file changed. One seen after that moment is left
 * as it is: the mark can arrive (through the event bus) after the changed code already raised it again.
 * Returns how many.
 */
export async function markProblemsStale(sql: Sql, projectId: string, at: Date): Promise<number> {
  const result = await sql`update problems set stale_since = ${at} where project_id = ${projectId} and last_seen < ${at}`;
  return result.count;
}

/** Deletes the project's problems that went stale before `cutoff` and were not seen again. Returns how many. */
export async function deleteStaleProblems(sql: Sql, projectId: string, cutoff: Date): Promise<number> {
  const result = await sql`delete from problems where project_id = ${projectId} and stale_since is not null and stale_since <= ${cutoff}`;
  return result.count;
}

export async function deleteAllProblems(sql: Sql, projectId: string): Promise<number> {
  const result = await sql`delete from problems where project_id = ${projectId}`;
  return result.count;
}

/** The project (and its owner) a sandbox belongs to, for reports that arrive on a preview host. */
export async function findProjectBySandbox(sql: Sql, sandboxId: string): Promise<{ projectId: string; ownerId: string } | null> {
  const [row] = await sql<{ projectId: string; ownerId: string }[]>`
    select id as "projectId", owner_id as "ownerId" from projects where sandbox_id = ${sandboxId}`;
  return row ?? null;
}

export async function findProjectOwner(sql: Sql, projectId: string): Promise<string | null> {
  const [row] = await sql<{ ownerId: string }[]>`select owner_id as "ownerId" from projects where id = ${projectId}`;
  return row?.ownerId ?? null;
}
