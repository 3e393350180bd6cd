import { z } from "zod";
import { filePathSchema } from "../file-path";

/** Text content limit for one file saved through the API (bytes of UTF-8). */
export const MAX_FILE_CONTENT_BYTES = 5 * 1024 * 1024;

export type ProjectFile = {
  id: string;
  projectId: string;
  path: string;
  size: number;
  updatedAt: string;
};

export const createFileSchema = z.object({ path: filePathSchema, content: z.string() });
export type CreateFile = z.infer<typeof createFileSchema>;

export const saveFileContentSchema = z.object({ content: z.string() });
export type SaveFileContent = z.infer<typeof saveFileContentSchema>;

export const renameFileSchema = z.object({ newPath: filePathSchema });
export type RenameFile = z.infer<typeof renameFileSchema>;

export type FileContent = ProjectFile & { content: string; binary: boolean };

export type DownloadMap = { projectName: string; filesCount: number; files: Record<string, string> };
