/**
 * Which entries of a repository's tree become project files. The zip import's path rules apply: symbolic
 * links, submodules, `.git/` contents, paths with `..` and paths the file service refuses are skipped and
 * listed; what the sandbox sync ignores (node_modules, build output, caches) is left out quietly, as on a
 * push it is never sent. Git LFS pointer files are kept as they are, with a note.
 *
 * @example
 * const { kept, skipped } = selectRepoFiles(entries); // skipped: [{ path: "link", reason: "symbolic link" }]
 */
import { filePathProblem } from "@shared/file-path";
import { isIgnoredPath } from "../../sandbox/ignored-paths";
import type { RepoEntry } from "./repo";

export type SkippedEntry = { path: string; reason: string };

export function selectRepoFiles(entries: RepoEntry[]): { kept: RepoEntry[]; skipped: SkippedEntry[] } {
  const kept: RepoEntry[] = [];
  const skipped: SkippedEntry[] = [];
  for (const e of entries) {
    const segments = e.path.split("/");
    if (e.type === "commit") skipped.push({ path: e.path, reason: "submodule" });
    else if (e.mode === "120000") skipped.push({ path: e.path, reason: "symbolic link" });
    else if (segments.includes("..") || segments.includes(".")) skipped.push({ path: e.path, reason: "path leaves the project" });
    else if (segments.some((s) => s.toLowerCase() === ".git")) skipped.push({ path: e.path, reason: ".git contents" });
    else if (isIgnoredPath(e.path)) continue;
    else {
      const problem = filePathProblem(e.path);
      if (problem) skipped.push({ path: e.path, reason: problem });
      else kept.push(e);
    }
  }
  return { kept, skipped };
}

const LFS_POINTER = new TextEncoder().encode("version https://git-lfs.github.com/spec/v1");

/** A Git LFS pointer: the file in the repository stands for content kept elsewhere. */
export function isLfsPointer(bytes: Uint8Array): boolean {
  if (bytes.length > 1024 || bytes.length < LFS_POINTER.length) return false;
  return LFS_POINTER.every((b, i) => bytes[i] === b);
}
