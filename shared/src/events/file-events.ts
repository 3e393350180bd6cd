/**
 * File events: what changed in a project's files, pushed to browsers over the project-events socket
 * (./project-events.ts), so the Files view changes the moment a file does.
 */
import type { ProjectFile } from "../schemas/file";

/** Every kind of file event, for clients that check what arrived. */
export const fileEventTypes = ["file.created", "file.updated", "file.deleted", "file.renamed"] as const;

export type FileEvent =
  | { type: "file.created"; projectId: string; file: ProjectFile }
  | { type: "file.updated"; projectId: string; file: ProjectFile }
  | { type: "file.deleted"; projectId: string; file: ProjectFile }
  | { type: "file.renamed"; projectId: string; file: ProjectFile; oldPath: string };
