/**
 * /api/sandbox: the project's sandbox — preview URL, validity, recreate, run the workflow, apply a template,
 * the terminal's one-shot shell commands (time-limited, output capped), and the app's problems.
 */
import { applyTemplateSchema, shellCommandSchema, type ApplyTemplateResult } from "@shared/schemas/sandbox";
import { Hono } from "hono";
import type { AppDeps, AppEnv } from "../app-env";
import { validate } from "../lib/validate";
import { projectAccess } from "../services/access";
import { clearProblems, listProblems } from "../services/problems";
import { runShellCommand } from "../services/sandboxes/shell";

export const sandboxRoutes = (deps: AppDeps) =>
  new Hono<AppEnv>()
    .get("/:projectId/url", async (c) =>
      c.json({ url: await deps.sandboxes.url(await projectAccess(deps, c.var.caller.uid, c.req.param("projectId"), "view")) }),
    )
    .get("/:projectId/validate", async (c) =>
      c.json({ isValid: await deps.sandboxes.validate(await projectAccess(deps, c.var.caller.uid, c.req.param("projectId"), "view")) }),
    )
    .post("/:projectId/recreate", async (c) =>
      c.json(await deps.sandboxes.recreate(await projectAccess(deps, c.var.caller.uid, c.req.param("projectId"), "edit"))),
    )
    .post("/:projectId/run-workflow", async (c) =>
      // Counted by the route's rate limit (app.ts) already, whether or not a sandbox is made.
      c.json({
        ok: true,
        ...(await deps.sandboxes.runWorkflow(await projectAccess(deps, c.var.caller.uid, c.req.param("projectId"), "edit"), { startCounted: true })),
      }),
    )
    // The agent's create_boilerplate, as a route: files written, dependencies installed, the dev server started.
    .post("/:projectId/template", validate("json", applyTemplateSchema), async (c) => {
      const { template } = c.req.valid("json");
      const applied = await deps.sandboxes.applyTemplate(await projectAccess(deps, c.var.caller.uid, c.req.param("projectId"), "edit"), template, {
        startCounted: true,
      });
      const body: ApplyTemplateResult = { filesWritten: applied.filesWritten, workflowCommand: applied.workflowCommand, url: applied.url };
      return c.json(body);
    })
    .post("/:projectId/shell", validate("json", shellCommandSchema), async (c) => {
      // The request's signal: a client that drops the request (Ctrl+C in the terminal) stops the command.
      const result = await runShellCommand(
        deps.sandboxes,
        await projectAccess(deps, c.var.caller.uid, c.req.param("projectId"), "edit"),
        c.req.valid("json").command,
        c.req.raw.signal,
      );
      return c.json(result);
    })
    // What the running app showed: browser errors from its preview, its dev server's error lines.
    .get("/:projectId/problems", async (c) => c.json(await listProblems(deps, await projectAccess(deps, c.var.caller.uid, c.req.param("projectId"), "view"))))
    .delete("/:projectId/problems", async (c) => {
      await clearProblems(deps, await projectAccess(deps, c.var.caller.uid, c.req.param("projectId"), "edit"));
      return c.json({ ok: true });
    });
