/**
 * /api/projects/{id}/git…: a project's git remote. PUT connects `{url, branch?, username?, token?, autoPush?}`,
 * GET answers the status (null when not connected), DELETE disconnects, POST /push `{message?, force?}` and
 * POST /pull. Access is checked before the body is read: a stranger gets 404 on every route whatever the body,
 * a viewer may read the status and gets 403 for the rest (editors and the owner may connect, push and pull). A pull whose sides overlap answers 409 with the conflicting files.
 */
import { connectGitSchema, type GitPullConflict, pushGitSchema } from "@shared/schemas/git";
import { Hono } from "hono";
import type { AppDeps, AppEnv } from "../app-env";
import { badRequest } from "../lib/errors";
import { projectAccess } from "../services/access";

const bodyOf = async <T>(
  c: { req: { json(): Promise<unknown> } },
  schema: { safeParse(v: unknown): { success: true; data: T } | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } } },
) => {
  const parsed = schema.safeParse(await c.req.json().catch(() => ({})));
  if (!parsed.success) throw badRequest(parsed.error.issues.map((i) => `${i.path.join(".") || "body"}: ${i.message}`).join("; "));
  return parsed.data;
};

export const gitRoutes = (deps: AppDeps) =>
  new Hono<AppEnv>()
    .get("/:id/git", async (c) => c.json(await deps.git.status(await projectAccess(deps, c.var.caller.uid, c.req.param("id"), "view"))))
    .put("/:id/git", async (c) => {
      // The access check comes first, so a stranger's bad body is a 404 too.
      const access = await projectAccess(deps, c.var.caller.uid, c.req.param("id"), "edit");
      return c.json(await deps.git.connect(access, await bodyOf(c, connectGitSchema)));
    })
    .delete("/:id/git", async (c) => {
      await deps.git.disconnect(await projectAccess(deps, c.var.caller.uid, c.req.param("id"), "edit"));
      return c.body(null, 204);
    })
    .post("/:id/git/push", async (c) => {
      const access = await projectAccess(deps, c.var.caller.uid, c.req.param("id"), "edit");
      return c.json(await deps.git.push(access, await bodyOf(c, pushGitSchema)));
    })
    .post("/:id/git/pull", async (c) => {
      const result = await deps.git.pull(await projectAccess(deps, c.var.caller.uid, c.req.param("id"), "edit"));
      if ("conflicts" in result) {
        const body: GitPullConflict = {
          error: `Both sides changed ${result.conflicts.length === 1 ? "this file" : "these files"}: ${result.conflicts.join(", ")}. Nothing was changed; resolve them on one side first.`,
          code: "conflict",
          files: result.conflicts,
        };
        return c.json(body, 409);
      }
      return c.json(result);
    });
