/** What the API answers, inferred from the response schemas (./responses/). */
export type { ActionStep, Message, MessageStatus, MessageUsage, ToolCall } from "./responses";
