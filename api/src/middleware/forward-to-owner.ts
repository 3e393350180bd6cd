/**
 * `/api/sandbox/{projectId}/…` requests that use the running sandbox (validate, recreate, run-workflow,
 * template, shell, processes, problems) are served by the instance that owns it (services/sandboxes/owners.ts):
 * one that lands elsewhere is forwarded there, signed with INSTANCE_SECRET, so the project never gets a
 * second sandbox (nor a second `app`) on another instance. Runs after sign-in (a stranger is refused here,
 * not forwarded) and before the rate limits (the owner counts the request once). When the owner is gone the
 * request is served here, which makes the sandbox again from storage.
 *
 * @example
 * api.use("/sandbox/:projectId/*", forwardToOwner({ auth, owners }));
 */
import { createMiddleware } from "hono/factory";
import type { AuthEnv } from "../auth/middleware";
import { forwardToInstance, type InstanceAuth } from "../lib/instance-auth";
import { isUuid } from "../services/context";
import type { SandboxOwners } from "../services/sandboxes/owners";

/** What follows `/sandbox/{projectId}/` on the routes that need the running sandbox. */
const USES_SANDBOX = /\/sandbox\/([^/]+)\/(validate|recreate|run-workflow|template|shell|problems|processes(?:\/.*)?)$/;

export function forwardToOwner(deps: { auth: InstanceAuth; owners: SandboxOwners }) {
  return createMiddleware<AuthEnv>(async (c, next) => {
    const refused = deps.auth.refuse(c.req.raw);
    if (refused) return refused;
    const match = USES_SANDBOX.exec(c.req.path);
    const projectId = match?.[1];
    if (!deps.auth.enabled || !projectId || !isUuid(projectId) || deps.auth.isInternal(c.req.raw)) return next();
    const owner = await deps.owners.find({ projectId });
    if (owner.kind !== "remote") return next();
    // Read once (Hono keeps it for the route): if the owner turns out to be gone, the request is served here.
    const body = c.req.method === "GET" || c.req.method === "HEAD" ? null : await c.req.arrayBuffer();
    const answer = await forwardToInstance(c.req.raw, owner.url, deps.auth, body);
    if (answer) return answer;
    deps.owners.gone(owner.url);
    return next();
  });
}
