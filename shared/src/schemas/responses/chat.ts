/**
 * The chat: messages with their tool calls and steps, stopping a run, attached images, the project's model,
 * how full its context is and the caller's monthly token budget.
 * Part of the API's answer schemas: ./index.ts re-exports them all.
 */
import * as z from "zod/mini";

const stepStatusSchema = z.enum(["in_progress", "completed"]);
/** See `toolDetailSchema` (events/stream.ts): what a tool badge opens to. */
const toolDetailSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("diff"), path: z.string(), edits: z.array(z.object({ removed: z.string(), added: z.string() })) }),
  z.object({ kind: z.literal("file"), path: z.string() }),
  z.object({ kind: z.literal("command"), command: z.string(), output: z.string() }),
]);
export const toolCallSchema = z.object({
  name: z.string(),
  summary: z.string(),
  status: stepStatusSchema,
  result: z.optional(z.string()),
  detail: z.optional(toolDetailSchema),
});
export type ToolCall = z.infer<typeof toolCallSchema>;
export const actionStepSchema = z.object({ description: z.string(), status: stepStatusSchema });
export type ActionStep = z.infer<typeof actionStepSchema>;
/** How the agent run that wrote an assistant message ended ('running' while it works). */
export const messageStatusSchema = z.enum(["running", "complete", "stopped", "failed"]);
export type MessageStatus = z.infer<typeof messageStatusSchema>;
/** See `tokenUsageSchema` (events/stream.ts): reported or estimated tokens, the model, and the cost when priced. */
export const messageUsageSchema = z.object({
  promptTokens: z.number(),
  completionTokens: z.number(),
  totalTokens: z.number(),
  estimated: z.optional(z.boolean()),
  model: z.optional(z.string()),
  cost: z.optional(z.nullable(z.number())),
});
export type MessageUsage = z.infer<typeof messageUsageSchema>;

export const messageSchema = z.object({
  id: z.string(),
  projectId: z.string(),
  role: z.enum(["user", "assistant"]),
  content: z.string(),
  thinking: z.nullable(z.string()),
  attachments: z.array(z.string()),
  toolCalls: z.array(toolCallSchema),
  actions: z.array(actionStepSchema),
  createdAt: z.string(),
  status: z.optional(messageStatusSchema),
  /** Tokens the model reported for the run that wrote this message (null when it reported none). */
  usage: z.optional(z.nullable(messageUsageSchema)),
});
export type Message = z.infer<typeof messageSchema>;
export const messageListSchema = z.array(messageSchema);

/** POST /api/messages/{projectId}/stop: false when there was no run to stop yet. */
export const stopRunSchema = z.object({ stopped: z.boolean() });

/** POST /api/upload/image. */
export const uploadedImageSchema = z.object({ url: z.string() });

/** GET/PUT /api/projects/{id}/model: the project's model and every model the server offers (MODELS; the first is the default). */
export const projectModelSchema = z.object({ model: z.string(), models: z.array(z.string()) });
export type ProjectModel = z.infer<typeof projectModelSchema>;
/**
 * GET /api/projects/{id}/context: how full the model's window is: the tokens the next request would send for
 * the conversation as it is (system prompt, tools, history), against the window.
 */
export const contextUsageSchema = z.object({
  model: z.string(),
  usedTokens: z.number(),
  contextTokens: z.number(),
});
export type ContextUsage = z.infer<typeof contextUsageSchema>;
/**
 * GET /api/usage: the caller's tokens this calendar month (UTC, `YYYY-MM`) against USER_MONTHLY_TOKENS
 * (`limitTokens`, 0 = no budget); `resetsAt` is the first instant of the next month.
 */
export const tokenBudgetSchema = z.object({
  month: z.string(),
  usedTokens: z.number(),
  limitTokens: z.number(),
  resetsAt: z.string(),
});
export type TokenBudget = z.infer<typeof tokenBudgetSchema>;
