/**
 * A project's files: the list, one file's content and the download map.
 * Part of the API's answer schemas: ./index.ts re-exports them all.
 */
import * as z from "zod/mini";

const projectFileShape = {
  id: z.string(),
  projectId: z.string(),
  path: z.string(),
  size: z.number(),
  updatedAt: z.string(),
};
export const projectFileSchema = z.object(projectFileShape);
export type ProjectFile = z.infer<typeof projectFileSchema>;
export const projectFileListSchema = z.array(projectFileSchema);
export const fileContentSchema = z.object({
  ...projectFileShape,
  content: z.string(),
  binary: z.boolean(),
});
export type FileContent = z.infer<typeof fileContentSchema>;

/** The download map; files listed in `binary` arrive base64-encoded. */
export const downloadSchema = z.object({
  projectName: z.string(),
  filesCount: z.number(),
  files: z.record(z.string(), z.string()),
  binary: z.optional(z.array(z.string())),
});
export type DownloadResponse = z.infer<typeof downloadSchema>;
