/**
 * The stored summary of a project's older chat messages (the agent's `ConversationSource.saveSummary`):
 * one small JSON object per project in object storage, beside the project's uploads, so it goes when the
 * project is deleted. Object storage rather than a table: one key read per run, and no schema change.
 *
 * @example
 * await saveConversationSummary(ctx, projectId, { upToMessageId, content: "The user built…" });
 * const summary = await loadConversationSummary(ctx, projectId);
 */
import type { ServiceContext } from "../context";
import { projectPrefix } from "../context";

export type StoredSummary = { upToMessageId: string; content: string };

const key = (projectId: string) => `${projectPrefix(projectId)}agent/conversation-summary.json`;

export async function loadConversationSummary(ctx: Pick<ServiceContext, "store" | "logger">, projectId: string): Promise<StoredSummary | null> {
  const bytes = await ctx.store.get(key(projectId));
  if (!bytes) return null;
  try {
    const parsed = JSON.parse(new TextDecoder().decode(bytes)) as Partial<StoredSummary>;
    if (typeof parsed.upToMessageId === "string" && typeof parsed.content === "string") return { upToMessageId: parsed.upToMessageId, content: parsed.content };
  } catch {
    // fall through: an unreadable note is as good as none (the run summarises again)
  }
  ctx.logger.warn("conversation summary unreadable; ignored", { projectId });
  return null;
}

export async function saveConversationSummary(ctx: Pick<ServiceContext, "store">, projectId: string, summary: StoredSummary): Promise<void> {
  const body = new TextEncoder().encode(JSON.stringify({ ...summary, savedAt: new Date().toISOString() }));
  await ctx.store.put(key(projectId), body, "application/json");
}
