/**
 * Named-process events pushed over the WebSocket (`GET /api/ws`) to a project's subscribers, and published on
 * the API's event bus so every instance's sockets get them (and other services, e.g. problem capture, can
 * follow the `app` output): new output lines as they are written, and each status change.
 */
import type { ProcessInfo, ProcessLogLine } from "../schemas/processes";

export const PROCESS_OUTPUT = "process.output";
export const PROCESS_STATUS = "process.status";

export type ProcessOutputEvent = { type: typeof PROCESS_OUTPUT; projectId: string; name: string; lines: ProcessLogLine[] };
export type ProcessStatusEvent = { type: typeof PROCESS_STATUS; projectId: string; process: ProcessInfo };
export type ProcessEvent = ProcessOutputEvent | ProcessStatusEvent;
