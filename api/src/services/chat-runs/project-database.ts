/**
 * The agent's port to a project's development database (agent/ports.ts `ProjectDatabase`): the catalog
 * read by app-data/introspect.ts and SQL run by app-data/run-sql.ts, on the client `connect` hands out
 * (the project's own role, so the agent can do no more than the app itself).
 */
import type { DatabaseTableInfo, ProjectDatabase } from "../../agent/ports";
import type { Sql } from "../../db/client";
import { databaseSize, describeTables } from "../app-data/introspect";
import { runSql } from "../app-data/run-sql";
import { SqlError } from "../app-data/sql-error";

export function createProjectDatabasePort(connect: () => Promise<Sql>): ProjectDatabase {
  return {
    async describe() {
      const sql = await connect();
      const [sizeBytes, tables] = await Promise.all([databaseSize(sql), describeTables(sql)]);
      return {
        sizeBytes,
        tables: tables.map((t): DatabaseTableInfo => ({ name: t.name, columns: t.columns, rowEstimate: t.rowEstimate, ...t.keys })),
      };
    },
    async run(text, limits) {
      try {
        return { result: await runSql(await connect(), text, limits) };
      } catch (error) {
        if (error instanceof SqlError) return { failed: { message: error.message, position: error.position } };
        throw error;
      }
    },
  };
}
