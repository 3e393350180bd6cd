/**
 * Asks every preview of a project shown in this tab to load its page again: after a restore, say, the
 * files changed all at once and the app restarted, which a dev server's hot reload may not follow.
 *
 * @example
 * requestPreviewReload(projectId);              // after the restore
 * const reloads = usePreviewReloads(projectId); // in a preview: part of the frame's key
 */
import { useCallback, useSyncExternalStore } from "react";

const counts = new Map<string, number>();
const listeners = new Set<() => void>();

export function requestPreviewReload(projectId: string): void {
  counts.set(projectId, (counts.get(projectId) ?? 0) + 1);
  for (const listener of listeners) listener();
}

/** How many reloads were asked for this project so far: a new number means load the page again. */
export function previewReloads(projectId: string): number {
  return counts.get(projectId) ?? 0;
}

export function subscribePreviewReloads(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function usePreviewReloads(projectId: string): number {
  const read = useCallback(() => previewReloads(projectId), [projectId]);
  return useSyncExternalStore(subscribePreviewReloads, read, read);
}
