/**
 * Each project's own PostgreSQL database, for development (issue 21, item 1). Made on first use; reached by
 * host-side code (agent tools, the Database API) as the project's own role, never as admin, and by sandbox
 * processes through `DATABASE_URL`. Lives on APP_DATABASES_URL's server, else DATABASE_URL's, else in one
 * embedded PGlite per project under DATA_DIR. Past APP_DATABASE_MAX_MB it turns read-only.
 *
 * @example
 * const db = await ensureProjectDatabase(ctx, projectId);          // { name, role, status: "ready", sizeBytes, maxBytes, kind }
 * const rows = await withProjectDatabase(ctx, projectId, (sql) => sql`select * from todos`);
 * const sql = await projectDatabaseSql(ctx, projectId);             // long-lived use: call sql.end() when done
 * const bytes = await projectDatabaseSize(ctx, projectId);
 * const url = await projectDatabaseUrl(ctx, projectId, "local");    // postgres://app_…:…@127.0.0.1:5432/app_…
 * await dropProjectDatabases(ctx, projectId);                       // the project is being deleted
 */
import type { DatabaseEnvironment } from "../../db/app-databases";
import type { Sql } from "../../db/client";
import { AppError } from "../../lib/errors";
import type { ServiceContext } from "../context";
import type { AppDatabases } from "./host";
import type { ProjectDatabase } from "./types";

export { createAppDatabases, type AppDatabases } from "./host";
export type { ProjectDatabase, ProjectDatabaseStatus } from "./types";
export type { DatabaseEnvironment } from "../../db/app-databases";

function host(ctx: ServiceContext, env: DatabaseEnvironment = "development"): AppDatabases {
  const found = env === "production" ? ctx.productionDatabases : ctx.appDatabases;
  if (!found) throw new AppError(503, "dependency_unavailable", "Project databases are not set up in this server process.");
  return found;
}

/**
 * The project's database, created (database, role, password) on first call. The caller checked ownership.
 * Production is made by the first server publish only (`publish/`), never by a look at it.
 */
export const ensureProjectDatabase = (ctx: ServiceContext, projectId: string, env: DatabaseEnvironment = "development"): Promise<ProjectDatabase> =>
  host(ctx, env).ensure(projectId);

/** Whether the project has its production database yet (made at its first server publish). */
export const hasProductionDatabase = async (ctx: ServiceContext, projectId: string): Promise<boolean> =>
  Boolean(ctx.productionDatabases && (await ctx.productionDatabases.exists(projectId)));

/**
 * A postgres.js client connected as the project's role (made on first use), through the project's gateway so
 * errors read the same as in the sandbox. The caller must `end()` it; prefer `withProjectDatabase`.
 */
export const projectDatabaseSql = (
  ctx: ServiceContext,
  projectId: string,
  options?: { max?: number },
  env: DatabaseEnvironment = "development",
): Promise<Sql> => host(ctx, env).client(projectId, options);

/** Runs `fn` with a client as the project's role, and closes it afterwards (so an idle embedded database stops). */
export async function withProjectDatabase<T>(
  ctx: ServiceContext,
  projectId: string,
  fn: (sql: Sql) => Promise<T>,
  env: DatabaseEnvironment = "development",
): Promise<T> {
  const sql = await projectDatabaseSql(ctx, projectId, undefined, env);
  try {
    return await fn(sql);
  } finally {
    // Not waited for: after a cancelled statement the connection's clean-up waits for an embedded database to
    // restart (seconds), and the caller's answer need not.
    void sql.end({ timeout: 5 }).catch(() => {});
  }
}

/** Bytes on disk, measured now (and read-only switched on or off against APP_DATABASE_MAX_MB). */
export const projectDatabaseSize = (ctx: ServiceContext, projectId: string, env: DatabaseEnvironment = "development"): Promise<number> =>
  host(ctx, env).size(projectId);

/**
 * Drops the project's databases (development and production) and roles; nothing to do for one it never had.
 * Called on project delete only: unpublishing keeps production.
 */
export async function dropProjectDatabases(ctx: ServiceContext, projectId: string): Promise<void> {
  const results = await Promise.allSettled([ctx.appDatabases?.drop(projectId), ctx.productionDatabases?.drop(projectId)]);
  const failed = results.find((r) => r.status === "rejected");
  if (failed) throw (failed as PromiseRejectedResult).reason;
}

/**
 * The `DATABASE_URL` a sandbox process gets. "local": 127.0.0.1:5432 inside the sandbox, where the supervisor
 * forwards to the project's gateway; "remote" (E2B): the server's own address, or a 503 saying what is missing.
 * Does not create the database: the first connection does.
 */
export const projectDatabaseUrl = (ctx: ServiceContext, projectId: string, via: "local" | "remote"): Promise<string> => host(ctx).sandboxUrl(projectId, via);
