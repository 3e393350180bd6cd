/** Queries on `messages`. Callers check project ownership first. */
import { displayName } from "@shared/events/team-events";
import type { ActionStep, Message, ToolCall } from "@shared/schemas/message";
import type { Sql } from "./client";

type MessageRow = Omit<Message, "createdAt" | "sender"> & {
  createdAt: Date;
  senderId: string | null;
  senderName: string | null;
  senderEmail: string | null;
  senderPicture: string | null;
};

/** The project's conversation, oldest first; a user message carries its sender (null when not known). */
export async function listMessages(sql: Sql, projectId: string): Promise<Message[]> {
  const rows = await sql<MessageRow[]>`
    select m.id, m.project_id as "projectId", m.role, m.content, m.thinking, m.attachments, m.tool_calls as "toolCalls",
           m.actions, m.status, m.usage, m.created_at as "createdAt",
           u.id as "senderId", u.display_name as "senderName", u.email as "senderEmail", u.photo_url as "senderPicture"
    from messages m left join users u on u.id = m.sender_id
    where m.project_id = ${projectId} order by m.created_at, m.id`;
  return rows.map(({ senderId, senderName, senderEmail, senderPicture, createdAt, ...r }) => ({
    ...r,
    createdAt: createdAt.toISOString(),
    ...(r.role === "user"
      ? { sender: senderId ? { id: senderId, name: displayName({ name: senderName, email: senderEmail }), picture: senderPicture } : null }
      : {}),
  }));
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
