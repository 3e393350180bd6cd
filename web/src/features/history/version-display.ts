/**
 * What the History panel shows of a version, and which version "Undo this run" goes back to.
 */
import type { VersionSource, VersionSummary } from "@shared/schemas/versions";
import { formatFileSize } from "../files/format-file-size";

export const SOURCE_LABELS: Record<VersionSource, string> = {
  agent: "Agent",
  user: "Your edits",
  restore: "Restore",
  manual: "Saved",
};

/**
 * @example
 * describeChange({ filesChanged: 3, bytes: 1536 }) // "3 files changed · 1.5 KB"
 * describeChange({ filesChanged: 0, bytes: 0 })    // "No changes"
 */
export function describeChange(v: Pick<VersionSummary, "filesChanged" | "bytes">): string {
  if (v.filesChanged === 0) return "No changes";
  const files = `${v.filesChanged} ${v.filesChanged === 1 ? "file" : "files"} changed`;
  return v.bytes > 0 ? `${files} · ${formatFileSize(v.bytes)}` : files;
}

/**
 * The version that holds the files as they were before the agent run that wrote `messageId`: the one just
 * older than the newest version the run recorded. Null when the run changed no files (it has no version)
 * or when that earlier version is not in the list.
 *
 * @param versions newest first, as the API lists them
 */
export function versionBeforeRun(versions: VersionSummary[], messageId: string): VersionSummary | null {
  const after = versions.findIndex((v) => v.messageId === messageId && v.source === "agent");
  if (after === -1) return null;
  // The run's own "before" version (same message id) is the state before it, if the run recorded one.
  const before = versions.slice(after + 1).find((v) => v.messageId !== messageId || v.label.startsWith("Before: "));
  return before ?? null;
}
