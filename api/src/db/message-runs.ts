/**
 * Queries behind agent runs. A run is the assistant message it writes: inserted as 'running' together
 * with the user message, rewritten as the run progresses, and finished as complete, stopped or failed.
 * A partial unique index (one 'running' message per project) makes the insert the run's claim.
 */
import type { TokenUsage } from "@shared/events/stream";
import type { ActionStep, ToolCall } from "@shared/schemas/message";
import { INSTANCE_ID as INSTANCE } from "../lib/instance";
import type { Sql } from "./client";

export type RunMessageState = {
  content: string;
  thinking: string | null;
  toolCalls: ToolCall[];
  actions: ActionStep[];
  usage: TokenUsage | null;
};

export type FinalStatus = "complete" | "stopped" | "failed";

const isUniqueViolation = (e: unknown) => (e as { code?: string })?.code === "23505";

/**
 * Stores the user's message and the assistant's 'running' message in one transaction. Returns false
 * when the project already has a running message (another run holds it).
 */
export async function insertRunMessages(
  sql: Sql,
  m: { projectId: string; userMessageId: string; assistantMessageId: string; content: string; attachments: string[]; senderId: string },
): Promise<boolean> {
  try {
    await sql.begin(async (tx) => {
      // The answer must sort after the question: an explicit millisecond apart (clock readings can tie).
      await tx`
        insert into messages (id, project_id, role, content, attachments, sender_id, created_at, updated_at)
        values (${m.userMessageId}, ${m.projectId}, 'user', ${m.content}, ${tx.json(m.attachments)}, ${m.senderId}, clock_timestamp(), clock_timestamp())`;
      await tx`
        insert into messages (id, project_id, role, content, status, created_at, updated_at, run_instance)
        select ${m.assistantMessageId}, ${m.projectId}, 'assistant', '', 'running', created_at + interval '1 millisecond', now(), ${INSTANCE}
        from messages where id = ${m.userMessageId}`;
      await tx`update projects set updated_at = now() where id = ${m.projectId}`;
    });
    return true;
  } catch (error) {
    if (isUniqueViolation(error)) return false;
    throw error;
  }
}

/** Saves the run's progress (still running). */
export async function saveRunProgress(sql: Sql, id: string, s: RunMessageState): Promise<void> {
  await sql`
    update messages set content = ${s.content}, thinking = ${s.thinking}, tool_calls = ${sql.json(s.toolCalls)},
      actions = ${sql.json(s.actions)}, usage = ${s.usage ? sql.json(s.usage) : null}, updated_at = now()
    where id = ${id} and status = 'running'`;
}

export async function finishRunMessage(sql: Sql, id: string, projectId: string, s: RunMessageState & { status: FinalStatus }): Promise<void> {
  await sql`
    update messages set content = ${s.content}, thinking = ${s.thinking}, tool_calls = ${sql.json(s.toolCalls)},
      actions = ${sql.json(s.actions)}, usage = ${s.usage ? sql.json(s.usage) : null}, status = ${s.status}, updated_at = now()
    where id = ${id}`;
  await sql`update projects set updated_at = now() where id = ${projectId}`;
}

/** The project's 'running' assistant message (its run, on whichever instance), or null. */
export async function findRunningMessage(sql: Sql, projectId: string): Promise<string | null> {
  const [row] = await sql<{ id: string }[]>`select id from messages where project_id = ${projectId} and status = 'running' limit 1`;
  return row?.id ?? null;
}

/** How the run writing this message stands: still 'running', or how it ended (null: no such message). */
export async function runStatus(sql: Sql, messageId: string): Promise<"running" | FinalStatus | null> {
  const [row] = await sql<{ status: "running" | FinalStatus }[]>`select status from messages where id = ${messageId}`;
  return row?.status ?? null;
}

/** Marks a live run as alive, so other instances do not take it for abandoned. */
export async function touchRunMessage(sql: Sql, id: string): Promise<void> {
  await sql`update messages set updated_at = now() where id = ${id} and status = 'running'`;
}

/**
 * A 'running' message not refreshed since `staleBefore` belongs to a run whose server went away: it is
 * marked failed (keeping what it had written) so the project can run again. Returns how many.
 */
export async function failAbandonedRuns(sql: Sql, projectId: string, staleBefore: Date, note: string): Promise<number> {
  const rows = await sql`
    update messages set status = 'failed',
      content = case when content = '' then ${note} else content || ${"\n\n" + note} end
    where project_id = ${projectId} and status = 'running' and updated_at < ${staleBefore}
    returning id`;
  return rows.length;
}

/**
 * The same for every project at once, judged on the database clock: run by each instance now and then, so
 * an answer whose server died reads as failed even if nobody sends to that project again.
 */
export async function failStaleRuns(sql: Sql, staleSeconds: number, note: string): Promise<{ id: string; projectId: string }[]> {
  return sql<{ id: string; projectId: string }[]>`
    update messages set status = 'failed', updated_at = now(),
      content = case when content = '' then ${note} else content || ${"\n\n" + note} end
    where status = 'running' and updated_at < now() - make_interval(secs => ${staleSeconds})
    returning id, project_id as "projectId"`;
}
