import { z } from "zod";

/** What the API answers, inferred from the response schemas (./responses/). */
export type { Project } from "./responses";

export const MAX_PROJECT_NAME_LENGTH = 100;
export const MAX_PROJECT_DESCRIPTION_LENGTH = 1000;

export const createProjectSchema = z.object({
  name: z.string().trim().min(1, "Name required").max(MAX_PROJECT_NAME_LENGTH),
  description: z.string().trim().max(MAX_PROJECT_DESCRIPTION_LENGTH).optional(),
});
export type CreateProject = z.infer<typeof createProjectSchema>;
