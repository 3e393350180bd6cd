/**
 * A sandbox's named processes on the wire (`/api/sandbox/{projectId}/processes…`): the request bodies and
 * the shapes answers and WebSocket events carry. The first process of every project is `app`, its dev server.
 */
import { z } from "zod";

/** What the API answers, inferred from the response schemas (./responses/). */
export type { ProcessInfo, ProcessLogLine, ProcessLogs, ProcessStatus } from "./responses";

/** The process that runs the project's workflow command (its dev server); the preview shows its port. */
export const APP_PROCESS = "app";
export const MAX_PROCESS_COMMAND_LENGTH = 400;
export const MAX_NAMED_PROCESSES = 8;

export const processNameSchema = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,31}$/, "A process name is 1–32 letters, digits, '-' or '_', starting with a letter or digit");

export const startProcessSchema = z.object({
  name: processNameSchema,
  command: z
    .string()
    .trim()
    .min(1, "Command is empty")
    .max(MAX_PROCESS_COMMAND_LENGTH, `A process command is at most ${MAX_PROCESS_COMMAND_LENGTH} characters`),
});
export type StartProcess = z.infer<typeof startProcessSchema>;

/** `?since=<cursor>`: a cursor from an earlier logs answer (omitted: every line still kept). */
export const processLogsQuerySchema = z.object({
  since: z.coerce.number().int().min(0).optional(),
});
