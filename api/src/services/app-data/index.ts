/**
 * The Database view's service: a project's development database (made on first use) as its owner sees it
 * in the web app: overview, a page of a table, and SQL from the SQL box, each on a client as the project's
 * own role (app-databases), so the view can do no more than the app itself.
 *
 * @example
 * const overview = await databaseOverview(ctx, access); // { status, sizeBytes, tables }
 * const result = await runProjectQuery(ctx, access, "select * from items"); // throws SqlError on a refused statement
 */
import { MAX_QUERY_ROWS, QUERY_TIMEOUT_MS, type DatabaseInfo, type QueryResult, type TableRows, type TableRowsQuery } from "@shared/schemas/database";
import type { ServiceContext } from "../context";
import { ensureProjectDatabase, projectDatabaseSize, withProjectDatabase } from "../app-databases";
import type { ProjectAccess } from "../access";
import { describeTables } from "./introspect";
import { runSql } from "./run-sql";
import { readTableRows } from "./table-rows";

export { SqlError } from "./sql-error";

export async function databaseOverview(ctx: ServiceContext, access: ProjectAccess): Promise<DatabaseInfo> {
  const { projectId } = access;
  if (!ctx.appDatabases) return { status: "unavailable", sizeBytes: 0, tables: [] };
  await ensureProjectDatabase(ctx, projectId);
  const tables = await withProjectDatabase(ctx, projectId, describeTables);
  // Measured after the catalog read, and so also switching read-only on or off against the limit.
  const sizeBytes = await projectDatabaseSize(ctx, projectId);
  const { status } = await ensureProjectDatabase(ctx, projectId);
  return { status, sizeBytes, tables: tables.map(({ name, columns, rowEstimate }) => ({ name, columns, rowEstimate })) };
}

export async function tableRows(ctx: ServiceContext, access: ProjectAccess, table: string, page: TableRowsQuery): Promise<TableRows> {
  const { projectId } = access;
  return withProjectDatabase(ctx, projectId, (sql) => readTableRows(sql, table, page, QUERY_TIMEOUT_MS));
}

export async function runProjectQuery(ctx: ServiceContext, access: ProjectAccess, text: string): Promise<QueryResult> {
  const { projectId } = access;
  return withProjectDatabase(ctx, projectId, (sql) => runSql(sql, text, { maxRows: MAX_QUERY_ROWS, timeoutMs: QUERY_TIMEOUT_MS }));
}
