/**
 * /api/projects: list, create, get (with the caller's role) and delete the caller's projects; `/shared`, the
 * ones others share with them.
 */
import { createProjectSchema } from "@shared/schemas/project";
import { Hono } from "hono";
import type { AppDeps, AppEnv } from "../app-env";
import { validate } from "../lib/validate";
import { projectAccessWithProject, projectAccess } from "../services/access";
import { listSharedProjects } from "../services/members";
import * as projects from "../services/projects";

export const projectRoutes = (deps: AppDeps) =>
  new Hono<AppEnv>()
    .get("/", async (c) => c.json(await projects.listProjects(deps, c.var.caller.uid)))
    .post("/", validate("json", createProjectSchema), async (c) => c.json(await projects.createProject(deps, c.var.caller.uid, c.req.valid("json")), 201))
    // Before `/:id`, which would take "shared" for a project id.
    .get("/shared", async (c) => c.json(await listSharedProjects(deps, c.var.caller.uid)))
    // With the caller's role, so the SPA shows a viewer the project read-only.
    .get("/:id", async (c) => {
      const { access, project } = await projectAccessWithProject(deps, c.var.caller.uid, c.req.param("id"), "view");
      return c.json({ ...project, role: access.role });
    })
    .delete("/:id", async (c) => {
      const access = await projectAccess(deps, c.var.caller.uid, c.req.param("id"), "own");
      await projects.deleteProject(deps, access);
      deps.git.forgetProject(access.projectId);
      // A published server of the project stops now (its production database went with the project).
      await deps.servers?.retire(access.projectId, null).catch(() => {});
      return c.json({ ok: true });
    });
