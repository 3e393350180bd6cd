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
import type { Sql } from "../../db/client";
import { AppError } from "../../lib/errors";
import type { ServiceContext } from "../context";
import type { AppDatabases } from "./host";
import type { ProjectDatabase } from "./types";

export { createAppDatabases, type AppDatabases } from "./host";
export type { ProjectDatabase, ProjectDatabaseStatus } from "./types";

function host(ctx: ServiceContext): AppDatabases {
  if (!ctx.appDatabases) throw new AppError(503, "dependency_unavailable", "Project databases are not set up in this server process.");
  return ctx.appDatabases;
}

/** The project's database, created (database, role, password) on first call. The caller checked ownership. */
export const ensureProjectDatabase = (ctx: ServiceContext, projectId: string): Promise<ProjectDatabase> => host(ctx).ensure(projectId);

/**
 * A postgres.js client connected as the project's role (made on first use), through the project's gateway so
 * errors read the same as in the sandbox. The caller must `end()` it; prefer `withProjectDatabase`.
 */
export const projectDatabaseSql = (ctx: ServiceContext, projectId: string, options?: { max?: number }): Promise<Sql> => host(ctx).client(projectId, options);

/** Runs `fn` with a client as the project's role, and closes it afterwards (so an idle embedded database stops). */
export async function withProjectDatabase<T>(ctx: ServiceContext, projectId: string, fn: (sql: Sql) => Promise<T>): Promise<T> {
  const sql = await projectDatabaseSql(ctx, projectId);
  try {
    return await fn(sql);
  } finally {
    // Not waited for: after a cancelled statement the connection's clean-up waits for an embedded database to
    // restart (seconds), and the caller's answer need not.
    void sql.end({ timeout: 5 }).catch(() => {});
  }
}

/** Bytes on disk, measured now (and read-only switched on or off against APP_DATABASE_MAX_MB). */
export const projectDatabaseSize = (ctx: ServiceContext, projectId: string): Promise<number> => host(ctx).size(projectId);

/** Drops the project's database(s) and role; nothing to do when it never had one. Called on project delete. */
export async function dropProjectDatabases(ctx: ServiceContext, projectId: string): Promise<void> {
  if (ctx.appDatabases) await ctx.appDatabases.drop(projectId);
}

/**
 * The `DATABASE_URL` a sandbox process gets. "local": 127.0.0.1:5432 inside the sandbox, where the supervisor
 * forwards to the project's gateway; "remote" (E2B): the server's own address, or a 503 saying what is missing.
 * Does not create the database: the first connection does.
 */
export const projectDatabaseUrl = (ctx: ServiceContext, projectId: string, via: "local" | "remote"): Promise<string> => host(ctx).sandboxUrl(projectId, via);
