/**
 * A project's development database as the Database view and its API see it: the tables, a page of a
 * table's rows, and a SQL query with its result. Cells are JSON values (numbers past 2^53, dates and bytes
 * as text), one array per row in column order, so two result columns may share a name.
 */
import { z } from "zod";

/** Rows a table page or a query answers at most. */
export const MAX_ROWS_PAGE = 500;
export const MAX_QUERY_ROWS = 500;
export const QUERY_TIMEOUT_MS = 10_000;
export const MAX_SQL_LENGTH = 100_000;

/**
 * `read_only`: past APP_DATABASE_MAX_MB (reads work, writes fail); `unavailable`: this server cannot make project
 * databases; `not_created`: production only, before the project's first server publish.
 */
export const databaseStatuses = ["ready", "read_only", "unavailable", "not_created"] as const;

/**
 * Which of a project's databases: development (the agent's and the preview's) or production (the published
 * server's, made at its first server publish; read-only in the Database view, out of every agent tool's reach).
 */
export const databaseEnvironments = ["development", "production"] as const;
export type DatabaseEnvironmentName = (typeof databaseEnvironments)[number];

/** `?env=production` on every Database view route; development when absent. */
export const databaseEnvQuerySchema = z.object({ env: z.enum(databaseEnvironments).default("development") });

export const databaseColumnSchema = z.object({
  name: z.string(),
  type: z.string().describe("PostgreSQL's name for the column's type (integer, text, timestamp with time zone…)"),
  nullable: z.boolean(),
});
export type DatabaseColumn = z.infer<typeof databaseColumnSchema>;

export const databaseTableSchema = z.object({
  name: z.string().describe("The table's name; tables outside the public schema are qualified (schema.table)"),
  columns: z.array(databaseColumnSchema),
  rowEstimate: z.number().describe("Rows in the table: PostgreSQL's estimate, counted exactly for small tables"),
});
export type DatabaseTable = z.infer<typeof databaseTableSchema>;

/** GET /api/projects/{id}/database */
export const databaseInfoSchema = z.object({
  status: z.enum(databaseStatuses),
  sizeBytes: z.number(),
  tables: z.array(databaseTableSchema),
});
export type DatabaseInfo = z.infer<typeof databaseInfoSchema>;

export const resultColumnSchema = z.object({ name: z.string(), type: z.string() });
export type ResultColumn = z.infer<typeof resultColumnSchema>;

export const cellSchema = z.json();
export type Cell = z.infer<typeof cellSchema>;

/** `order`: a column name, `-name` for descending. */
export const tableRowsQuerySchema = databaseEnvQuerySchema.extend({
  limit: z.coerce.number().int().min(1).max(MAX_ROWS_PAGE).default(100),
  offset: z.coerce.number().int().min(0).default(0),
  order: z.string().max(200).optional().describe("A column to sort by; a leading - sorts descending"),
});
export type TableRowsQuery = z.infer<typeof tableRowsQuerySchema>;

/** GET /api/projects/{id}/database/tables/{table}/rows */
export const tableRowsSchema = z.object({
  columns: z.array(resultColumnSchema),
  rows: z.array(z.array(cellSchema)),
  total: z.number(),
});
export type TableRows = z.infer<typeof tableRowsSchema>;

export const runQuerySchema = z.object({
  sql: z.string().trim().min(1, "SQL is empty").max(MAX_SQL_LENGTH),
});
export type RunQuery = z.infer<typeof runQuerySchema>;

/** POST /api/projects/{id}/database/query */
export const queryResultSchema = z.object({
  columns: z.array(resultColumnSchema),
  rows: z.array(z.array(cellSchema)),
  rowCount: z.number().describe("Rows the statement returned or changed"),
  truncated: z.boolean().describe("More rows were returned than the answer holds"),
  ms: z.number(),
});
export type QueryResult = z.infer<typeof queryResultSchema>;

/** The 400 a failed statement answers: PostgreSQL's message, and where in the SQL it points (1-based). */
export const sqlErrorBodySchema = z.object({
  error: z.string(),
  code: z.string(),
  position: z.number().optional(),
  sqlState: z.string().optional(),
});
export type SqlErrorBody = z.infer<typeof sqlErrorBodySchema>;
