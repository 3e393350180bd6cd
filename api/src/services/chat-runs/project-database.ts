/**
 * The agent's port to a project's development database (agent/ports.ts `ProjectDatabase`): the catalog
 * read by app-data/introspect.ts and SQL run by app-data/run-sql.ts, on a client `withSql` lends for the
 * call (the project's own role, so the agent can do no more than the app itself).
 */
import type { DatabaseTableInfo, ProjectDatabase } from "../../agent/ports";
import type { Sql } from "../../db/client";
import { databaseSize, describeTables } from "../app-data/introspect";
import { runSql } from "../app-data/run-sql";
import { SqlError } from "../app-data/sql-error";

export type WithSql = <T>(fn: (sql: Sql) => Promise<T>) => Promise<T>;

export function createProjectDatabasePort(withSql: WithSql): ProjectDatabase {
  return {
    async describe() {
      const [sizeBytes, tables] = await withSql((sql) => Promise.all([databaseSize(sql), describeTables(sql)]));
      return {
        sizeBytes,
        tables: tables.map((t): DatabaseTableInfo => ({ name: t.name, columns: t.columns, rowEstimate: t.rowEstimate, ...t.keys })),
      };
    },
    async run(text, limits) {
      try {
        return { result: await withSql((sql) => runSql(sql, text, limits)) };
      } catch (error) {
        if (error instanceof SqlError) return { failed: { message: error.message, position: error.position } };
        throw error;
      }
    },
  };
}
