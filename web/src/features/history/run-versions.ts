/**
 * Which chat answers changed files: an agent run that did records versions carrying its answer's id, so
 * only those answers offer "Undo this run".
 */
import type { VersionSummary } from "@shared/schemas/versions";

export function answersWithVersions(versions: readonly Pick<VersionSummary, "messageId" | "source">[] | undefined): ReadonlySet<string> {
  const ids = new Set<string>();
  for (const v of versions ?? []) if (v.source === "agent" && v.messageId) ids.add(v.messageId);
  return ids;
}
