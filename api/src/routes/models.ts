/**
 * Model choice and token use. `GET|PUT /api/projects/{id}/model`: the project's model and the choices
 * (MODELS); `GET /api/projects/{id}/context`: how full the model's window is for the conversation as it
 * stands; `GET /api/usage`: the caller's tokens this month against USER_MONTHLY_TOKENS.
 */
import { setProjectModelSchema } from "@shared/schemas/model";
import { Hono } from "hono";
import type { AppDeps, AppEnv } from "../app-env";
import { validate } from "../lib/validate";
import { projectAccess } from "../services/access";
import { chooseProjectModel, getProjectModel } from "../services/model-choice";
import { createTokenBudget } from "../services/token-budget";

export const projectModelRoutes = (deps: AppDeps) =>
  new Hono<AppEnv>()
    .get("/:id/model", async (c) => c.json(await getProjectModel(deps, await projectAccess(deps, c.var.caller.uid, c.req.param("id"), "view"))))
    .put("/:id/model", validate("json", setProjectModelSchema), async (c) =>
      c.json(await chooseProjectModel(deps, await projectAccess(deps, c.var.caller.uid, c.req.param("id"), "edit"), c.req.valid("json").model)),
    )
    .get("/:id/context", async (c) => c.json(await deps.runs.contextUsage(await projectAccess(deps, c.var.caller.uid, c.req.param("id"), "view"))));

export const usageRoutes = (deps: AppDeps) => {
  const budget = createTokenBudget(deps);
  return new Hono<AppEnv>().get("/", async (c) => c.json(await budget.status(c.var.caller.uid)));
};
