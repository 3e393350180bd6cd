/**
 * GET /api/projects/{id}/deployments/{deploymentId}/logs: a deployment's last 1,000 log lines. A server this
 * instance runs answers from its live log (build, start, its own output, sleeps and wakes); otherwise the
 * deployment's saved build log. New lines follow over the WebSocket as `deployment.log`.
 */
import * as rows from "../../db/deployments";
import { notFound } from "../../lib/errors";
import type { ProjectAccess } from "../access";
import { isUuid } from "../context";
import { MAX_LOG_LINES } from "../server-deployments/log-ring";
import type { PublishDeps } from "./index";

export async function deploymentLogs(deps: PublishDeps, access: ProjectAccess, deploymentId: string): Promise<{ lines: string[] }> {
  const found = isUuid(deploymentId) ? await rows.findDeployment(deps.sql, access.projectId, deploymentId) : null;
  if (!found) throw notFound("Deployment");
  const live = deps.servers?.logs(found.id);
  if (live && live.length) return { lines: live.slice(-MAX_LOG_LINES) };
  const saved = found.buildLog.replace(/\n$/, "");
  return { lines: saved ? saved.split("\n").slice(-MAX_LOG_LINES) : [] };
}
