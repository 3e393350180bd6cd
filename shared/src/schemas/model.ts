/**
 * The model a project's runs use, how full its context window is, and the caller's monthly token budget.
 *
 * @example
 * const body = setProjectModelSchema.parse({ model: "qwen2.5-coder:7b" }); // PUT /api/projects/{id}/model
 */
import { z } from "zod";

export const setProjectModelSchema = z.object({ model: z.string().trim().min(1, "Name a model").max(200) });
export type SetProjectModel = z.infer<typeof setProjectModelSchema>;

/** The project's model and every model the server offers (MODELS; the first is the default). */
export type ProjectModel = { model: string; models: string[] };

/**
 * How full the model's window is: the tokens the next request would send for the conversation as it is
 * (system prompt, tools, history), against the window.
 */
export type ContextUsage = { model: string; usedTokens: number; contextTokens: number };

/**
 * The caller's tokens this calendar month (UTC, `YYYY-MM`) against USER_MONTHLY_TOKENS (`limitTokens`,
 * 0 = no budget); `resetsAt` is the first instant of the next month.
 */
export type TokenBudget = { month: string; usedTokens: number; limitTokens: number; resetsAt: string };
