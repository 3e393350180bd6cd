/** What the app tools (read_logs, get_problems, restart_app) share: the app runtime, or why there is none. */
import type { AppRuntime, AppStatus } from "../ports";
import { ToolError, type ToolContext } from "./define-tool";

export const NO_APP_RUNTIME = "Sandboxes are not available on this server, so there is no running app to look at.";

export function appRuntime(ctx: ToolContext): AppRuntime {
  if (!ctx.app) throw new ToolError(NO_APP_RUNTIME);
  return ctx.app;
}

/** 'running on port 5173', 'crashed with exit code 1', 'not configured (no workflow command)'. */
export function describeAppStatus(s: AppStatus): string {
  switch (s.status) {
    case "running":
      return s.ports.length ? `running on port ${s.ports.join(", ")}` : "running (no port open yet)";
    case "starting":
      return "starting";
    case "not_configured":
      return "not configured (no workflow command: set one with set_workflow_command)";
    default:
      return s.exitCode === null ? s.status : `${s.status} with exit code ${s.exitCode}`;
  }
}
