/**
 * The model a project's runs use, how full its context window is, and the caller's monthly token budget.
 *
 * @example
 * const body = setProjectModelSchema.parse({ model: "qwen2.5-coder:7b" }); // PUT /api/projects/{id}/model
 */
import { z } from "zod";

/** What the API answers, inferred from the response schemas (./responses/). */
export type { ContextUsage, ProjectModel, TokenBudget } from "./responses";

export const setProjectModelSchema = z.object({ model: z.string().trim().min(1, "Name a model").max(200) });
export type SetProjectModel = z.infer<typeof setProjectModelSchema>;
