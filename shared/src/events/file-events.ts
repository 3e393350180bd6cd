/**
 * File events pushed over the WebSocket (`GET /api/ws`), so the Files view changes the moment a file does.
 *
 * Client → server: `{ "type": "subscribe", "projectId": "…" }` / `{ "type": "unsubscribe", "projectId": "…" }`.
 * Server → client: one `FileEvent` per change, the named processes' `ProcessEvent`s (./process-events.ts), `{ "type": "subscribed", projectId }` after a subscribe, or
 * `{ "type": "error", message }`.
 */
import { z } from "zod";
import type { ProjectFile } from "../schemas/file";
import type { DeploymentEvent } from "./deployment-events";
import type { ProblemsChangedEvent } from "../schemas/problems";
import type { ProcessEvent } from "./process-events";

/** Every kind of file event, for clients that check what arrived. */
export const fileEventTypes = ["file.created", "file.updated", "file.deleted", "file.renamed"] as const;

export type FileEvent =
  | { type: "file.created"; projectId: string; file: ProjectFile }
  | { type: "file.updated"; projectId: string; file: ProjectFile }
  | { type: "file.deleted"; projectId: string; file: ProjectFile }
  | { type: "file.renamed"; projectId: string; file: ProjectFile; oldPath: string };

export type ServerSocketMessage =
  | FileEvent
  | DeploymentEvent
  | ProblemsChangedEvent
  | ProcessEvent
  | { type: "subscribed"; projectId: string }
  | { type: "error"; message: string };

export const clientSocketMessageSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("subscribe"), projectId: z.string().max(64) }),
  z.object({ type: z.literal("unsubscribe"), projectId: z.string().max(64) }),
]);
export type ClientSocketMessage = z.infer<typeof clientSocketMessageSchema>;

/** The WebSocket subprotocol list carries the token (a browser cannot set headers on a WebSocket). */
export const WS_PROTOCOL = "app-builder.v1";
