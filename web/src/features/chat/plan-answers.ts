/**
 * Which answers of a project were plans (sent in Plan mode), so they offer "Build this". Kept in the
 * browser (localStorage, per project): the server stores the messages, not the mode they were asked in.
 *
 * @example
 * markPlanAnswer(projectId, messageId);
 * const plans = usePlanAnswers(projectId); // plans.has(message.id)
 */
import { createStore, useStore } from "../../lib/create-store";

const KEEP = 50;
const key = (projectId: string) => `plan-answers:${projectId}`;
/** Each project's set, read once from storage; the same set object until it changes (React reads it as a snapshot). */
const cache = new Map<string, ReadonlySet<string>>();
const changes = createStore(0);

function read(projectId: string): ReadonlySet<string> {
  let ids = cache.get(projectId);
  if (!ids) {
    try {
      const stored = JSON.parse(localStorage.getItem(key(projectId)) ?? "[]");
      ids = new Set(Array.isArray(stored) ? stored.filter((id): id is string => typeof id === "string") : []);
    } catch {
      ids = new Set();
    }
    cache.set(projectId, ids);
  }
  return ids;
}

export function markPlanAnswer(projectId: string, messageId: string): void {
  const ids = [...read(projectId), messageId].slice(-KEEP);
  try {
    localStorage.setItem(key(projectId), JSON.stringify(ids));
  } catch {
    // Storage full or refused: the mark lasts until the page is left.
  }
  cache.set(projectId, new Set(ids));
  changes.set((n) => n + 1);
}

export function usePlanAnswers(projectId: string): ReadonlySet<string> {
  return useStore(changes, () => read(projectId));
}

/** The message "Build this" sends: the plan itself, so the build does not depend on the history kept. */
export const buildRequest = (plan: string) => `Build this plan:\n\n${plan.trim()}`;
