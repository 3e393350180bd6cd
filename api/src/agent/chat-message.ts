/**
 * The conversation as the agent speaks it, whatever the model's SDK: system, user (text and images),
 * assistant (text, tool calls, reasoning) and tool results. The model client converts it to its wire
 * format in one place, so another provider needs one new client file and nothing else.
 *
 * @example
 * const messages: ChatMessage[] = [
 *   { role: "system", content: "You are…" },
 *   { role: "user", content: "What is in this picture?", images: [{ mime: "image/png", base64: "iVBOR…" }] },
 * ];
 */

/** An image for the model: its bytes as base64 (encoded once per run, not per model call). */
export type ChatImage = { mime: string; base64: string };

/** A tool call the model asked for; `arguments` is its raw JSON text, as streamed. */
export type ToolCallRequest = { id: string; name: string; arguments: string };

export type ChatMessage =
  | { role: "system"; content: string }
  | { role: "user"; content: string; images?: ChatImage[] }
  /** `reasoning` is kept for providers that want it back; OpenAI-compatible servers are not sent it. */
  | { role: "assistant"; content: string; toolCalls?: ToolCallRequest[]; reasoning?: string }
  | { role: "tool"; toolCallId: string; content: string };

/** A tool as offered to the model: its name, what it does, and its input as a JSON schema. */
export type ToolSpec = { name: string; description: string; parameters: Record<string, unknown> };
