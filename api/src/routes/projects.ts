/** /api/projects: list, create, get and delete the caller's projects. */
import { createProjectSchema } from "@shared/schemas/project";
import { Hono } from "hono";
import type { AppDeps, AppEnv } from "../app-env";
import { validate } from "../lib/validate";
import * as projects from "../services/projects";

export const projectRoutes = (deps: AppDeps) =>
  new Hono<AppEnv>()
    .get("/", async (c) => c.json(await projects.listProjects(deps, c.var.caller.uid)))
    .post("/", validate("json", createProjectSchema), async (c) =>
      c.json(await projects.createProject(deps, c.var.caller.uid, c.req.valid("json")), 201),
    )
    .get("/:id", async (c) => c.json(await projects.getOwnedProject(deps, c.var.caller.uid, c.req.param("id"))))
    .delete("/:id", async (c) => {
      const { uid } = c.var.caller;
      const { sandboxId } = await projects.deleteProject(deps, uid, c.req.param("id"));
      // Stopped before the answer: the deleted project's preview answers 404 from this moment.
      await deps.sandboxes.stop(uid, c.req.param("id"), sandboxId);
      return c.json({ ok: true });
    });
