export type ToolCall = {
  name: string;
  summary: string;
  status: "in_progress" | "completed";
  result?: string;
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
};
