/**
 * /api/sandbox/{projectId}/processes: the project's named processes (its `app` dev server and others) —
 * list, start or replace, restart, stop, and read logs from a cursor. Live output and status changes travel
 * over the WebSocket (`process.output`, `process.status`). Owner-checked: another user's project is 404.
 */
import { processLogsQuerySchema, startProcessSchema } from "@shared/schemas/processes";
import { Hono } from "hono";
import type { AppDeps, AppEnv } from "../app-env";
import { validate } from "../lib/validate";

export const sandboxProcessRoutes = (deps: AppDeps) =>
  new Hono<AppEnv>()
    .get("/:projectId/processes", async (c) => c.json(await deps.sandboxes.processes.list(c.var.caller.uid, c.req.param("projectId"))))
    .post("/:projectId/processes", validate("json", startProcessSchema), async (c) =>
      c.json(await deps.sandboxes.processes.start(c.var.caller.uid, c.req.param("projectId"), c.req.valid("json"))),
    )
    .post("/:projectId/processes/:name/restart", async (c) =>
      c.json(await deps.sandboxes.processes.restartOwned(c.var.caller.uid, c.req.param("projectId"), c.req.param("name"))),
    )
    .post("/:projectId/processes/:name/stop", async (c) =>
      c.json(await deps.sandboxes.processes.stopOwned(c.var.caller.uid, c.req.param("projectId"), c.req.param("name"))),
    )
    .get("/:projectId/processes/:name/logs", validate("query", processLogsQuerySchema), async (c) =>
      c.json(await deps.sandboxes.processes.logs(c.var.caller.uid, c.req.param("projectId"), c.req.param("name"), c.req.valid("query").since)),
    );
