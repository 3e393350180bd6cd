/**
 * The project-events socket (`GET /api/ws`): one WebSocket per browser that carries every live change of the
 * projects it subscribes to: file events (./file-events.ts), the named processes' output and status
 * (./process-events.ts), problem-list changes, publish progress (./deployment-events.ts), and who else is in
 * the project, runs they start and new activity (./team-events.ts).
 *
 * Client → server: `{ "type": "subscribe", "projectId": "…" }` / `{ "type": "unsubscribe", "projectId": "…" }`.
 * Server → client: one of the events above, `{ "type": "subscribed", projectId }` after a subscribe,
 * `{ "type": "resync", projectId }` when the server may have missed some of the project's events (its event
 * bus lost its database connection and got it back): the browser refetches everything it shows of the project,
 * or `{ "type": "error", message }`.
 */
import { z } from "zod";
import type { ProblemsChangedEvent } from "../schemas/problems";
import type { DeploymentEvent } from "./deployment-events";
import type { FileEvent } from "./file-events";
import type { ProcessEvent } from "./process-events";
import type { TeamEvent } from "./team-events";

export type ServerSocketMessage =
  | FileEvent
  | DeploymentEvent
  | ProblemsChangedEvent
  | ProcessEvent
  | TeamEvent
  | { type: "subscribed"; projectId: string }
  | { type: "resync"; projectId: string }
  | { type: "error"; message: string };

export const clientSocketMessageSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("subscribe"), projectId: z.string().max(64) }),
  z.object({ type: z.literal("unsubscribe"), projectId: z.string().max(64) }),
]);
export type ClientSocketMessage = z.infer<typeof clientSocketMessageSchema>;

/** The WebSocket subprotocol list carries the token (a browser cannot set headers on a WebSocket). */
export const WS_PROTOCOL = "app-builder.v1";
