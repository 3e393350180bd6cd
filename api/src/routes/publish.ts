/**
 * Publish routes: POST/GET/DELETE /api/projects/{id}/publish (publish, the site's state, unpublish),
 * GET /api/projects/{id}/deployments, POST …/deployments/{deploymentId}/activate (rollback or roll
 * forward), GET …/deployments/{deploymentId}/logs (the last 1,000 lines), and GET /api/sites (the caller's live sites, for the project cards). Build progress arrives
 * over the WebSocket (`deployment.log`, `deployment.status`).
 */
import { publishRequestSchema } from "@shared/schemas/publish";
import { Hono } from "hono";
import type { MiddlewareHandler } from "hono";
import type { AppDeps, AppEnv } from "../app-env";
import { validate } from "../lib/validate";
import { projectAccess } from "../services/access";
import { recordActivity } from "../services/activity";
import { deploymentLogs } from "../services/publish/deployment-logs";
import * as publish from "../services/publish/index";

export const publishRoutes = (deps: AppDeps, rateLimit: MiddlewareHandler<AppEnv>) =>
  new Hono<AppEnv>()
    .post("/:id/publish", rateLimit, validate("json", publishRequestSchema), async (c) => {
      const access = await projectAccess(deps, c.var.caller.uid, c.req.param("id"), "edit");
      const published = await publish.publishProject(deps, access, c.req.valid("json"));
      await recordActivity(deps, access, "site.published", { url: published.url });
      return c.json(published);
    })
    .get("/:id/publish", async (c) => c.json(await publish.getSiteState(deps, await projectAccess(deps, c.var.caller.uid, c.req.param("id"), "view"))))
    .delete("/:id/publish", async (c) => {
      const access = await projectAccess(deps, c.var.caller.uid, c.req.param("id"), "edit");
      await publish.unpublishProject(deps, access);
      await recordActivity(deps, access, "site.unpublished");
      return c.body(null, 204);
    })
    .get("/:id/deployments", async (c) =>
      c.json(await publish.listProjectDeployments(deps, await projectAccess(deps, c.var.caller.uid, c.req.param("id"), "view"))),
    )
    .get("/:id/deployments/:deploymentId/logs", async (c) =>
      c.json(await deploymentLogs(deps, await projectAccess(deps, c.var.caller.uid, c.req.param("id"), "view"), c.req.param("deploymentId"))),
    )
    .post("/:id/deployments/:deploymentId/activate", async (c) =>
      c.json(await publish.activateDeployment(deps, await projectAccess(deps, c.var.caller.uid, c.req.param("id"), "edit"), c.req.param("deploymentId"))),
    );

export const liveSiteRoutes = (deps: AppDeps) => new Hono<AppEnv>().get("/", async (c) => c.json(await publish.listLiveSites(deps, c.var.caller.uid)));
