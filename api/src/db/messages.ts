/** Queries on `messages`. Callers check project ownership first. */
import type { ActionStep, Message, ToolCall } from "@shared/schemas/message";
import type { Sql } from "./client";

type MessageRow = Omit<Message, "createdAt"> & { createdAt: Date };

export async function listMessages(sql: Sql, projectId: string): Promise<Message[]> {
  const rows = await sql<MessageRow[]>`
    select id, project_id as "projectId", role, content, thinking, attachments, tool_calls as "toolCalls",
           actions, status, usage, created_at as "createdAt"
    from messages where project_id = ${projectId} order by created_at, id`;
  return rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() }));
}

export async function insertMessage(
  sql: Sql,
  m: {
    id: string;
    projectId: string;
    role: "user" | "assistant";
    content: string;
    thinking?: string | null;
    attachments?: string[];
    toolCalls?: ToolCall[];
    actions?: ActionStep[];
  },
): Promise<void> {
  await sql`
    insert into messages (id, project_id, role, content, thinking, attachments, tool_calls, actions)
    values (${m.id}, ${m.projectId}, ${m.role}, ${m.content}, ${m.thinking ?? null},
            ${sql.json(m.attachments ?? [])}, ${sql.json(m.toolCalls ?? [])}, ${sql.json(m.actions ?? [])})`;
}
