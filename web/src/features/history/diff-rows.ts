/**
 * A diff between a version and the current files as one list of rows, sorted by path, each saying which
 * file to read on each side of the Monaco diff (null: the file does not exist on that side).
 *
 * @example
 * diffRows(diff) // [{ kind: "changed", path: "src/App.tsx", versionPath: "src/App.tsx", currentPath: "src/App.tsx" }]
 */
import type { VersionDiff } from "@shared/schemas/versions";

export type DiffKind = "added" | "removed" | "changed" | "renamed";
export type DiffRow = {
  kind: DiffKind;
  /** The path shown: the current one, or the version's for a file removed since. */
  path: string;
  /** The file at the version (the diff's left side). */
  versionPath: string | null;
  /** The file as it is now (the right side). */
  currentPath: string | null;
};

/** Rows of a diff taken from a version (`from`) to the current files (`to`). */
export function diffRows(diff: Pick<VersionDiff, "added" | "removed" | "changed" | "renamed">): DiffRow[] {
  const rows: DiffRow[] = [
    ...diff.changed.map((e) => ({ kind: "changed" as const, path: e.path, versionPath: e.path, currentPath: e.path })),
    ...diff.added.map((e) => ({ kind: "added" as const, path: e.path, versionPath: null, currentPath: e.path })),
    ...diff.removed.map((e) => ({ kind: "removed" as const, path: e.path, versionPath: e.path, currentPath: null })),
    ...diff.renamed.map((e) => ({ kind: "renamed" as const, path: e.to, versionPath: e.from, currentPath: e.to })),
  ];
  return rows.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** What a restore of the version would do to each file, as a person reads it. */
export const DIFF_KIND_LABELS: Record<DiffKind, string> = {
  added: "New since",
  removed: "Deleted since",
  changed: "Changed",
  renamed: "Renamed",
};
