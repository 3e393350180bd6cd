/**
 * /api/sandbox/{projectId}/processes: the project's named processes (its `app` dev server and others) —
 * list, start or replace, restart, stop, and read logs from a cursor. Live output and status changes travel
 * over the WebSocket (`process.output`, `process.status`). Access-checked: a stranger gets 404, a viewer may list and read logs only.
 */
import { processLogsQuerySchema, startProcessSchema } from "@shared/schemas/processes";
import { Hono } from "hono";
import type { AppDeps, AppEnv } from "../app-env";
import { validate } from "../lib/validate";
import { projectAccess } from "../services/access";

export const sandboxProcessRoutes = (deps: AppDeps) =>
  new Hono<AppEnv>()
    .get("/:projectId/processes", async (c) =>
      c.json(await deps.sandboxes.processes.list(await projectAccess(deps, c.var.caller.uid, c.req.param("projectId"), "view"))),
    )
    .post("/:projectId/processes", validate("json", startProcessSchema), async (c) =>
      c.json(await deps.sandboxes.processes.start(await projectAccess(deps, c.var.caller.uid, c.req.param("projectId"), "edit"), c.req.valid("json"))),
    )
    .post("/:projectId/processes/:name/restart", async (c) =>
      c.json(await deps.sandboxes.processes.restartNamed(await projectAccess(deps, c.var.caller.uid, c.req.param("projectId"), "edit"), c.req.param("name"))),
    )
    .post("/:projectId/processes/:name/stop", async (c) =>
      c.json(await deps.sandboxes.processes.stopNamed(await projectAccess(deps, c.var.caller.uid, c.req.param("projectId"), "edit"), c.req.param("name"))),
    )
    .get("/:projectId/processes/:name/logs", validate("query", processLogsQuerySchema), async (c) =>
      c.json(
        await deps.sandboxes.processes.logs(
          await projectAccess(deps, c.var.caller.uid, c.req.param("projectId"), "view"),
          c.req.param("name"),
          c.req.valid("query").since,
        ),
      ),
    );
