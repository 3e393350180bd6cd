import { z } from "zod";
import { filePathSchema } from "../file-path";

/** What the API answers, inferred from the response schemas (./responses/). */
export type { FileContent, ProjectFile } from "./responses";
import type { DownloadResponse } from "./responses";

/** The download map without its list of base64 entries. */
export type DownloadMap = Omit<DownloadResponse, "binary">;

/** Text content limit for one file saved through the API (bytes of UTF-8). */
export const MAX_FILE_CONTENT_BYTES = 5 * 1024 * 1024;

export const createFileSchema = z.object({ path: filePathSchema, content: z.string() });
export type CreateFile = z.infer<typeof createFileSchema>;

export const saveFileContentSchema = z.object({ content: z.string() });
export type SaveFileContent = z.infer<typeof saveFileContentSchema>;

export const renameFileSchema = z.object({ newPath: filePathSchema });
export type RenameFile = z.infer<typeof renameFileSchema>;
