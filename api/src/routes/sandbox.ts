/**
 * /api/sandbox: the project's sandbox — preview URL, validity, recreate, run the workflow, apply a template,
 * and the terminal's one-shot shell commands (time-limited, output capped).
 */
import { applyTemplateSchema, shellCommandSchema, type ApplyTemplateResult, type ShellResult } from "@shared/schemas/sandbox";
import { Hono } from "hono";
import type { AppDeps, AppEnv } from "../app-env";
import { validate } from "../lib/validate";

export const SHELL_TIMEOUT_MS = 60_000;
const SHELL_OUTPUT_CAP = 256 * 1024;

const cap = (text: string) =>
  text.length > SHELL_OUTPUT_CAP ? `${text.slice(0, SHELL_OUTPUT_CAP)}\n[output cut at ${SHELL_OUTPUT_CAP / 1024} KB]` : text;

export const sandboxRoutes = (deps: AppDeps) =>
  new Hono<AppEnv>()
    .get("/:projectId/url", async (c) => c.json({ url: await deps.sandboxes.url(c.var.caller.uid, c.req.param("projectId")) }))
    .get("/:projectId/validate", async (c) =>
      c.json({ isValid: await deps.sandboxes.validate(c.var.caller.uid, c.req.param("projectId")) }),
    )
    .post("/:projectId/recreate", async (c) => c.json(await deps.sandboxes.recreate(c.var.caller.uid, c.req.param("projectId"))))
    .post("/:projectId/run-workflow", async (c) =>
      c.json({ ok: true, ...(await deps.sandboxes.runWorkflow(c.var.caller.uid, c.req.param("projectId"))) }),
    )
    // The agent's create_boilerplate, as a route: files written, dependencies installed, the dev server started.
    .post("/:projectId/template", validate("json", applyTemplateSchema), async (c) => {
      const { template } = c.req.valid("json");
      const applied = await deps.sandboxes.applyTemplate(c.var.caller.uid, c.req.param("projectId"), template);
      const body: ApplyTemplateResult = { filesWritten: applied.filesWritten, workflowCommand: applied.workflowCommand, url: applied.url };
      return c.json(body);
    })
    .post("/:projectId/shell", validate("json", shellCommandSchema), async (c) => {
      const sandbox = await deps.sandboxes.ensure(c.var.caller.uid, c.req.param("projectId"));
      const { command } = c.req.valid("json");
      // Each command runs in its own process namespace, which ends with it. A trailing `&` asks for a
      // server that outlives the command, so start it as a background process of the sandbox instead.
      const background = /(^|[^&])&\s*$/.exec(command);
      if (background) {
        const started = command.replace(/&\s*$/, "").trim();
        await sandbox.run(started, { background: true });
        return c.json({ stdout: `Started in the background: ${started}\n`, stderr: "", error: null } satisfies ShellResult);
      }
      const result = await sandbox.run(command, { timeoutMs: SHELL_TIMEOUT_MS });
      const body: ShellResult = {
        stdout: cap(result.stdout),
        stderr: cap(result.stderr),
        error: result.timedOut
          ? `Command timed out after ${SHELL_TIMEOUT_MS / 1000} s and was stopped. Start long-running servers in the background by ending the command with &.`
          : result.exitCode !== 0 && result.exitCode !== null
            ? `Command exited with code ${result.exitCode}`
            : result.truncated
              ? "Output was longer than 1 MB and was cut."
              : null,
      };
      return c.json(body);
    });
