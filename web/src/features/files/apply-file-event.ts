/** Folds one pushed file event into the cached list, so the Files view changes without a refetch. */
import type { FileEvent } from "@shared/events/file-events";
import type { ProjectFile } from "@shared/schemas/file";

export function applyFileEvent(list: ProjectFile[] | undefined, event: FileEvent): ProjectFile[] | undefined {
  if (!list) return list; // Not loaded yet: the first fetch brings the truth.
  const rest = list.filter((file) => file.id !== event.file.id);
  if (event.type === "file.deleted") return rest.length === list.length ? list : rest;
  // created, updated, renamed: the event carries the file's metadata as it now is.
  return [...rest, event.file];
}
