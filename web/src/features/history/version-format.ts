/**
 * How a version reads in the History list: who made it, when, and how big its change was.
 *
 * @example
 * describeChange({ filesChanged: 3, bytes: 1536 }) // "3 files · 1.5 KB"
 */
import type { VersionSource, VersionSummary } from "@shared/schemas/versions";
import { formatFileSize } from "../files/format-file-size";

export const SOURCE_LABELS: Record<VersionSource, string> = {
  agent: "Agent",
  user: "Edited",
  restore: "Restore",
  manual: "Saved",
};

/** The size of a version's change. `bytes` counts only added or changed content, so a removal has none. */
export function describeChange({ filesChanged, bytes }: Pick<VersionSummary, "filesChanged" | "bytes">): string {
  if (filesChanged <= 0) return "No changes";
  const files = `${filesChanged} ${filesChanged === 1 ? "file" : "files"}`;
  return bytes > 0 ? `${files} · ${formatFileSize(bytes)}` : files;
}

/**
 * The mark a version's data gets in History: its database changed (and is kept), or it was too big to keep.
 * Null when there is nothing to say (no database, or the same data as the version before).
 */
export function dataMark({ data, dataChanged }: Pick<VersionSummary, "data" | "dataChanged">): { text: string; title: string } | null {
  if (data === "too_large")
    return { text: "Data not included", title: "The database was over APP_DATABASE_VERSION_MAX_MB: restoring this version leaves the data as it is" };
  if (dataChanged) return { text: "Data changed", title: "The database changed in this version; restoring it puts the data back too" };
  return null;
}

/** The time of a version: the clock time today, the date and time on other days. */
export function formatVersionTime(iso: string, now: Date = new Date()): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return "";
  const time = at.toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit" });
  if (at.toDateString() === now.toDateString()) return time;
  const date = at.toLocaleDateString(undefined, { month: "short", day: "numeric", ...(at.getFullYear() !== now.getFullYear() ? { year: "numeric" } : {}) });
  return `${date}, ${time}`;
}
