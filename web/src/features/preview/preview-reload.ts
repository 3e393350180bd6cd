/**
 * Asks every preview of a project shown in this tab to load its page again: after a restore, say, the
 * files changed all at once and the app restarted, which a dev server's hot reload may not follow.
 *
 * @example
 * requestPreviewReload(projectId);              // after the restore
 * const reloads = usePreviewReloads(projectId); // in a preview: part of the frame's key
 */
import { createStore, useStore } from "../../lib/create-store";

const counts = createStore<ReadonlyMap<string, number>>(new Map());

export function requestPreviewReload(projectId: string): void {
  counts.set((current) => new Map(current).set(projectId, (current.get(projectId) ?? 0) + 1));
}

/** How many reloads were asked for this project so far: a new number means load the page again. */
export function previewReloads(projectId: string): number {
  return counts.get().get(projectId) ?? 0;
}

export const subscribePreviewReloads = counts.subscribe;

export function usePreviewReloads(projectId: string): number {
  return useStore(counts, (current) => current.get(projectId) ?? 0);
}
