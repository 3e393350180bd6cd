/**
 * Build progress pushed over the WebSocket (`GET /api/ws`) to the owner's sockets subscribed to the project:
 * `deployment.log` carries build output as it comes, `deployment.status` each change of a deployment's state.
 * The schema is the one shape: the API builds its events as this type, and the browser parses what arrives
 * with it, so a malformed message is dropped instead of reaching the Publish dialog.
 */
import { z } from "zod";
import { deploymentStatuses } from "../schemas/publish";

export const deploymentEventTypes = ["deployment.log", "deployment.status"] as const;

export const deploymentEventSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("deployment.log"), projectId: z.string(), deploymentId: z.string(), text: z.string() }),
  z.object({
    type: z.literal("deployment.status"),
    projectId: z.string(),
    deploymentId: z.string(),
    status: z.enum(deploymentStatuses),
    url: z.string(),
    error: z.string().optional(),
  }),
]);

export type DeploymentEvent = z.infer<typeof deploymentEventSchema>;
