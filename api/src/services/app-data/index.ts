/**
 * The Database view's service: a project's database as its owner sees it in the web app: overview, a page of a
 * table, and SQL from the SQL box, each on a client as the project's own role (app-databases), so the view can
 * do no more than the app itself. Development is made on first look; production only by a server publish, and
 * here it is read-only: every statement runs inside a READ ONLY transaction.
 *
 * @example
 * const overview = await databaseOverview(ctx, access); // { status, sizeBytes, tables }
 * const result = await runProjectQuery(ctx, access, "select * from items"); // throws SqlError on a refused statement
 * await runProjectQuery(ctx, access, "select * from todos", "production"); // read-only
 */
import {
  MAX_QUERY_ROWS,
  QUERY_TIMEOUT_MS,
  type DatabaseEnvironmentName,
  type DatabaseInfo,
  type QueryResult,
  type TableRows,
  type TableRowsQuery,
} from "@shared/schemas/database";
import { conflict } from "../../lib/errors";
import type { ServiceContext } from "../context";
import { ensureProjectDatabase, hasProductionDatabase, projectDatabaseSize, withProjectDatabase } from "../app-databases";
import type { ProjectAccess } from "../access";
import { describeTables } from "./introspect";
import { runSql } from "./run-sql";
import { readTableRows } from "./table-rows";

export { SqlError } from "./sql-error";

export async function databaseOverview(ctx: ServiceContext, access: ProjectAccess, env: DatabaseEnvironmentName = "development"): Promise<DatabaseInfo> {
  const { projectId } = access;
  const databases = env === "production" ? ctx.productionDatabases : ctx.appDatabases;
  if (!databases) return { status: "unavailable", sizeBytes: 0, tables: [] };
  // Looking at production never makes it: it exists from the first server publish on.
  if (env === "production" && !(await hasProductionDatabase(ctx, projectId))) return { status: "not_created", sizeBytes: 0, tables: [] };
  await ensureProjectDatabase(ctx, projectId, env);
  const tables = await withProjectDatabase(ctx, projectId, describeTables, env);
  // Measured after the catalog read, and so also switching read-only on or off against the limit.
  const sizeBytes = await projectDatabaseSize(ctx, projectId, env);
  const { status } = await ensureProjectDatabase(ctx, projectId, env);
  return { status, sizeBytes, tables: tables.map(({ name, columns, rowEstimate }) => ({ name, columns, rowEstimate })) };
}

export async function tableRows(ctx: ServiceContext, access: ProjectAccess, table: string, page: TableRowsQuery): Promise<TableRows> {
  const { projectId } = access;
  const env = page.env ?? "development";
  await requireExisting(ctx, projectId, env);
  return withProjectDatabase(ctx, projectId, (sql) => readTableRows(sql, table, page, QUERY_TIMEOUT_MS, { readOnly: env === "production" }), env);
}

export async function runProjectQuery(
  ctx: ServiceContext,
  access: ProjectAccess,
  text: string,
  env: DatabaseEnvironmentName = "development",
): Promise<QueryResult> {
  const { projectId } = access;
  await requireExisting(ctx, projectId, env);
  return withProjectDatabase(
    ctx,
    projectId,
    (sql) => runSql(sql, text, { maxRows: MAX_QUERY_ROWS, timeoutMs: QUERY_TIMEOUT_MS, readOnly: env === "production" }),
    env,
  );
}

async function requireExisting(ctx: ServiceContext, projectId: string, env: DatabaseEnvironmentName): Promise<void> {
  if (env !== "production" || (await hasProductionDatabase(ctx, projectId))) return;
  throw conflict("This project has no production database yet: it is made when the project is first published with a server.");
}
