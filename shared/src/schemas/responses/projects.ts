/**
 * A project as the API returns it.
 * Part of the API's answer schemas: ./index.ts re-exports them all.
 */
import * as z from "zod/mini";

export const projectSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.nullable(z.string()),
  sandboxId: z.nullable(z.string()),
  sandboxUrl: z.nullable(z.string()),
  workflowCommand: z.nullable(z.string()),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** The caller's place in the project: only `GET /api/projects/{id}` says it (a viewer's screens are read-only). */
  role: z.optional(z.enum(["owner", "editor", "viewer"])),
});
export type Project = z.infer<typeof projectSchema>;
export const projectListSchema = z.array(projectSchema);
