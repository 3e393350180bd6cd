/** /api/messages: a project's chat history. (The stream route arrives with the agent.) */
import { Hono } from "hono";
import type { AppDeps, AppEnv } from "../app-env";
import { projectAccess } from "../services/access";
import * as messages from "../services/messages";

export const messageRoutes = (deps: AppDeps) =>
  new Hono<AppEnv>().get("/:projectId", async (c) =>
    c.json(await messages.listMessages(deps, await projectAccess(deps, c.var.caller.uid, c.req.param("projectId"), "view"))),
  );
