/**
 * The chat stream's events: what `POST /api/messages/stream` and
 * `GET /api/messages/{projectId}/active` send, one `data: {json}\n\n` line each. The web client parses
 * them with `streamEventSchema`; the server builds them with the `StreamEvent` type.
 *
 * @example
 * const event = streamEventSchema.parse(JSON.parse(line.slice("data: ".length)));
 * if (event.type === "chunk") appendText(event.content);
 */
import { z } from "zod";
import { IMAGE_ONLY_CONTENT, MAX_IMAGES_PER_MESSAGE, MAX_MESSAGE_CHARS, tooLongMessage } from "../constants";
import { MAX_SELECTED_ELEMENTS, selectedElementSchema } from "../schemas/selected-element";

export { IMAGE_ONLY_CONTENT, MAX_IMAGES_PER_MESSAGE };

export const actionStepSchema = z.object({
  description: z.string(),
  status: z.enum(["in_progress", "completed"]),
});

/**
 * A run's tokens: as the endpoint reported them, or counted with the tokenizer when it reported none
 * (`estimated`). `model` is the model the run used; `cost` its price in US dollars when MODEL_PRICES has one.
 */
export const tokenUsageSchema = z.object({
  promptTokens: z.number(),
  completionTokens: z.number(),
  totalTokens: z.number(),
  estimated: z.boolean().optional(),
  model: z.string().optional(),
  cost: z.number().nullable().optional(),
});
export type TokenUsage = z.infer<typeof tokenUsageSchema>;

export const runStatusSchema = z.enum(["complete", "stopped", "failed"]);
export type RunStatus = z.infer<typeof runStatusSchema>;

/**
 * What a tool badge opens to: an edit's removed and added text, the file written (opened by a link), or a
 * command with its output.
 */
export const toolDetailSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("diff"), path: z.string(), edits: z.array(z.object({ removed: z.string(), added: z.string() })) }),
  z.object({ kind: z.literal("file"), path: z.string() }),
  z.object({ kind: z.literal("command"), command: z.string(), output: z.string() }),
]);
export type ToolDetail = z.infer<typeof toolDetailSchema>;

export const streamEventSchema = z.discriminatedUnion("type", [
  /**
   * Text to append to the answer. Step lines are
   * chunks too, each on its own line; `step` says which kind, for clients that want to know without parsing.
   */
  z.object({ type: z.literal("chunk"), content: z.string(), step: z.enum(["in_progress", "completed", "warning"]).optional() }),
  /** Reasoning text (only when the request asked for it), shown as 'Extended Thinking'. */
  z.object({ type: z.literal("thinking"), content: z.string() }),
  z.object({ type: z.literal("action"), action: actionStepSchema }),
  z.object({ type: z.literal("actions_completed"), actions: z.array(actionStepSchema) }),
  z.object({ type: z.literal("tool_start"), name: z.string(), summary: z.string() }),
  /** `detail`: what the badge opens to for a person (toolDetailSchema); `result` is what the model read. */
  z.object({ type: z.literal("tool_complete"), name: z.string(), summary: z.string(), result: z.string(), detail: toolDetailSchema.optional() }),
  z.object({ type: z.literal("error"), message: z.string() }),
  /**
   * The agent asks the owner for a secret (request_secret) and waits: the chat shows a form with the name,
   * the reason and a password field whose value goes straight to `PUT /api/projects/{id}/secrets/{name}`
   * (never through the chat), or a Decline button. The model hears only "set" or "declined".
   */
  z.object({ type: z.literal("secret_request"), name: z.string(), reason: z.string() }),
  /**
   * MODEL_MAX_CONCURRENCY: the run's request waits for the model; `position` is its place in the line (1 = next),
   * sent again as it moves, and 0 once it goes ahead. The chat shows "queued" meanwhile.
   */
  z.object({ type: z.literal("queued"), position: z.number().int().min(0) }),
  /** Always the last event. `messageId` is the saved assistant message; `status` how the run ended. */
  z.object({
    type: z.literal("done"),
    messageId: z.string().optional(),
    status: runStatusSchema.optional(),
    usage: tokenUsageSchema.nullable().optional(),
  }),
]);
export type StreamEvent = z.infer<typeof streamEventSchema>;
export type StreamEventType = StreamEvent["type"];

/** `plan`: the agent only reads and answers with a plan; `build` (the default) changes the project. */
export const chatModeSchema = z.enum(["plan", "build"]);
export type ChatMode = z.infer<typeof chatModeSchema>;

/** The body of `POST /api/messages/stream`. */
export const sendMessageSchema = z
  .object({
    projectId: z.string().min(1),
    content: z
      .string()
      .default("")
      .superRefine((text, ctx) => {
        if (text.length > MAX_MESSAGE_CHARS) ctx.addIssue({ code: "custom", message: tooLongMessage(text.length) });
      }),
    attachments: z.array(z.string().min(1).max(2048)).max(MAX_IMAGES_PER_MESSAGE, `At most ${MAX_IMAGES_PER_MESSAGE} images per message`).optional(),
    enableReasoning: z.boolean().optional(),
    mode: chatModeSchema.optional(),
    /** Elements picked in the preview ("Select to edit"): the model is told which ones the message is about. */
    elements: z.array(selectedElementSchema).max(MAX_SELECTED_ELEMENTS, `At most ${MAX_SELECTED_ELEMENTS} selected elements per message`).optional(),
  })
  .refine((b) => b.content.trim().length > 0 || (b.attachments?.length ?? 0) > 0, {
    message: "Type a message or attach an image",
    path: ["content"],
  });
export type SendMessage = z.infer<typeof sendMessageSchema>;

/** Encodes one event as an SSE line. */
export const encodeStreamEvent = (event: StreamEvent) => `data: ${JSON.stringify(event)}\n\n`;
