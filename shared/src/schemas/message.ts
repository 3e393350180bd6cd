export type ToolCall = {
  name: string;
  summary: string;
  status: "in_progress" | "completed";
  result?: string;
};

/** How the agent run that wrote an assistant message ended ('running' while it works). */
export type MessageStatus = "running" | "complete" | "stopped" | "failed";

/** See `tokenUsageSchema` (events/stream.ts): reported or estimated tokens, the model, and the cost when priced. */
export type MessageUsage = {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
  estimated?: boolean;
  model?: string;
  cost?: number | null;
};

export type ActionStep = { description: string; status: "in_progress" | "completed" };

export type Message = {
  id: string;
  projectId: string;
  role: "user" | "assistant";
  content: string;
  thinking: string | null;
  attachments: string[];
  toolCalls: ToolCall[];
  actions: ActionStep[];
  createdAt: string;
  status?: MessageStatus;
  /** Tokens the model reported for the run that wrote this message (null when it reported none). */
  usage?: MessageUsage | null;
};
