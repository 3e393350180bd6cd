/**
 * A project's people and its activity: GET/POST /api/projects/{id}/members, PATCH/DELETE …/members/{email},
 * POST …/transfer, GET …/activity. Access is checked before the body is read, so a stranger gets 404 and a
 * member without the right 403 whatever they send; the owner manages members, a member may remove themselves.
 */
import type { ChangeMemberRole, InviteMember, TransferProject } from "@shared/schemas/members";
import { Hono } from "hono";
import type { AppDeps, AppEnv } from "../app-env";
import { jsonBody } from "../lib/validate";
import { projectAccess } from "../services/access";
import { listProjectActivity } from "../services/activity";
import * as members from "../services/members";

const body = (c: { req: { json(): Promise<unknown> } }) => c.req.json().catch(() => null);

export const memberRoutes = (deps: AppDeps) =>
  new Hono<AppEnv>()
    .get("/:id/members", async (c) => c.json(await members.listProjectMembers(deps, await projectAccess(deps, c.var.caller.uid, c.req.param("id"), "view"))))
    .post("/:id/members", jsonBody<InviteMember>(), async (c) => {
      const access = await projectAccess(deps, c.var.caller.uid, c.req.param("id"), "own");
      return c.json(await members.inviteMember(deps, access, await body(c)), 201);
    })
    .patch("/:id/members/:email", jsonBody<ChangeMemberRole>(), async (c) => {
      const access = await projectAccess(deps, c.var.caller.uid, c.req.param("id"), "own");
      return c.json(await members.changeMemberRole(deps, access, c.req.param("email"), await body(c)));
    })
    .delete("/:id/members/:email", async (c) => {
      await members.removeMember(deps, await projectAccess(deps, c.var.caller.uid, c.req.param("id"), "view"), c.req.param("email"));
      return c.body(null, 204);
    })
    .post("/:id/transfer", jsonBody<TransferProject>(), async (c) => {
      const access = await projectAccess(deps, c.var.caller.uid, c.req.param("id"), "own");
      return c.json(await members.transferProject(deps, access, await body(c)));
    })
    .get("/:id/activity", async (c) => c.json(await listProjectActivity(deps, await projectAccess(deps, c.var.caller.uid, c.req.param("id"), "view"))));
