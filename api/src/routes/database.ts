/**
 * /api/projects/{id}/database…: the Database view's API: the database's tables, a page of a table's rows,
 * and SQL from the SQL box, of development or (`?env=production`) production, read-only. A statement PostgreSQL refuses (or one cancelled at the time limit) answers 400
 * with its message and, when it names one, its position in the SQL. Mounted under /projects.
 */
import { databaseEnvQuerySchema, runQuerySchema, tableRowsQuerySchema, type SqlErrorBody } from "@shared/schemas/database";
import { Hono } from "hono";
import type { AppDeps, AppEnv } from "../app-env";
import { validate } from "../lib/validate";
import { projectAccess } from "../services/access";
import { databaseOverview, runProjectQuery, SqlError, tableRows } from "../services/app-data/index";

const sqlErrorBody = (error: SqlError): SqlErrorBody => ({ error: error.message, code: "bad_request", position: error.position, sqlState: error.sqlState });

export const databaseRoutes = (deps: AppDeps) =>
  new Hono<AppEnv>()
    .get("/:id/database", validate("query", databaseEnvQuerySchema), async (c) =>
      c.json(await databaseOverview(deps, await projectAccess(deps, c.var.caller.uid, c.req.param("id"), "view"), c.req.valid("query").env)),
    )
    .get("/:id/database/tables/:table/rows", validate("query", tableRowsQuerySchema), async (c) => {
      try {
        return c.json(
          await tableRows(deps, await projectAccess(deps, c.var.caller.uid, c.req.param("id"), "view"), c.req.param("table"), c.req.valid("query")),
        );
      } catch (error) {
        if (error instanceof SqlError) return c.json(sqlErrorBody(error), 400);
        throw error;
      }
    })
    .post("/:id/database/query", validate("query", databaseEnvQuerySchema), validate("json", runQuerySchema), async (c) => {
      try {
        const access = await projectAccess(deps, c.var.caller.uid, c.req.param("id"), "edit");
        return c.json(await runProjectQuery(deps, access, c.req.valid("json").sql, c.req.valid("query").env));
      } catch (error) {
        if (error instanceof SqlError) return c.json(sqlErrorBody(error), 400);
        throw error;
      }
    });
