/**
 * The database view's answers, typed from their full zod schemas (../database.ts); these zod/mini copies for
 * the browser are held to those types by their annotations.
 * Part of the API's answer schemas: ./index.ts re-exports them all.
 */
import * as z from "zod/mini";
import type { DatabaseInfo, QueryResult, TableRows } from "../database";

/** GET /api/projects/{id}/database (types and limits: ./database.ts). */
export const databaseInfoSchema: z.ZodMiniType<DatabaseInfo> = z.object({
  status: z.enum(["ready", "read_only", "unavailable", "not_created"]),
  sizeBytes: z.number(),
  tables: z.array(
    z.object({
      name: z.string(),
      columns: z.array(z.object({ name: z.string(), type: z.string(), nullable: z.boolean() })),
      rowEstimate: z.number(),
    }),
  ),
});
const resultColumnsSchema = z.array(z.object({ name: z.string(), type: z.string() }));
/** GET /api/projects/{id}/database/tables/{table}/rows. */
export const tableRowsSchema: z.ZodMiniType<TableRows> = z.object({
  columns: resultColumnsSchema,
  rows: z.array(z.array(z.json())),
  total: z.number(),
});
/** POST /api/projects/{id}/database/query. */
export const queryResultSchema: z.ZodMiniType<QueryResult> = z.object({
  columns: resultColumnsSchema,
  rows: z.array(z.array(z.json())),
  rowCount: z.number(),
  truncated: z.boolean(),
  ms: z.number(),
});
