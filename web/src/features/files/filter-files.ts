/** The Files search: a case-insensitive substring match on the path; an empty term keeps all. */
import type { ProjectFile } from "@shared/schemas/file";

export function filterFiles<T extends Pick<ProjectFile, "path">>(files: readonly T[], term: string): T[] {
  if (!term) return [...files];
  const needle = term.toLowerCase();
  return files.filter((file) => file.path.toLowerCase().includes(needle));
}

/** Path order by code unit, the same on every machine (the server's collation may differ). */
export function sortByPath<T extends Pick<ProjectFile, "path">>(files: readonly T[]): T[] {
  return [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
