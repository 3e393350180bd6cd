/**
 * /api/projects/{id}/secrets: a project's secrets. GET lists names and times (never values); PUT
 * `/{name}` `{value}` creates or replaces one; DELETE `/{name}` removes one; POST `/{name}/decline` answers an
 * agent's request_secret with no. Access-checked before anything else: a stranger gets 404 on every route,
 * whatever the name or body; setting and removing are the owner's, listing and declining an editor's too.
 */
import { type PutSecret, putSecretSchema } from "@shared/schemas/secrets";
import { Hono } from "hono";
import type { AppDeps, AppEnv } from "../app-env";
import { jsonBody } from "../lib/validate";
import { projectAccess } from "../services/access";
import { recordActivity } from "../services/activity";
import { declineSecret } from "../services/secrets/secret-requests";

export const secretRoutes = (deps: AppDeps) =>
  new Hono<AppEnv>()
    .get("/:id/secrets", async (c) => c.json(await deps.secrets.list(await projectAccess(deps, c.var.caller.uid, c.req.param("id"), "edit"))))
    .put("/:id/secrets/:name", jsonBody<PutSecret>(), async (c) => {
      // Read by hand, not by a validator: the access check comes first, so a stranger's bad body is a 404 too.
      const access = await projectAccess(deps, c.var.caller.uid, c.req.param("id"), "own");
      const body = putSecretSchema.safeParse(await c.req.json().catch(() => null));
      const saved = await deps.secrets.set(access, c.req.param("name"), body.success ? body.data.value : null);
      const { created, ...secret } = saved;
      // The name only: a value is never written anywhere but its sealed row.
      await recordActivity(deps, access, "secret.set", { name: secret.name });
      return c.json(secret, created ? 201 : 200);
    })
    .delete("/:id/secrets/:name", async (c) => {
      const access = await projectAccess(deps, c.var.caller.uid, c.req.param("id"), "own");
      await deps.secrets.remove(access, c.req.param("name"));
      await recordActivity(deps, access, "secret.removed", { name: c.req.param("name") });
      return c.body(null, 204);
    })
    .post("/:id/secrets/:name/decline", async (c) => {
      await declineSecret(deps, await projectAccess(deps, c.var.caller.uid, c.req.param("id"), "edit"), c.req.param("name"));
      return c.body(null, 204);
    });
