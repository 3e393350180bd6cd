/**
 * Build progress pushed over the WebSocket (`GET /api/ws`) to the owner's sockets subscribed to the project:
 * `deployment.log` carries build output as it comes, `deployment.status` each change of a deployment's state.
 */
import type { DeploymentStatus } from "../schemas/publish";

export const deploymentEventTypes = ["deployment.log", "deployment.status"] as const;

export type DeploymentEvent =
  | { type: "deployment.log"; projectId: string; deploymentId: string; text: string }
  | { type: "deployment.status"; projectId: string; deploymentId: string; status: DeploymentStatus; url: string; error?: string };
