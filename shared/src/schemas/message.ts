/** What the API answers, inferred from the response schemas (./responses.ts). */
export type { ActionStep, Message, MessageSender, MessageStatus, MessageUsage, ToolCall } from "./responses";
