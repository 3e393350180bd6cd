/**
 * Paths that never sync between sandbox and storage: dependencies, VCS data, build output, caches, and the
 * shell and REPL histories written to HOME (the project folder). The one list: providers also skip these
 * when they list and watch (installs make tens of thousands of events), and zip imports skip them too.
 */
const IGNORED_SEGMENTS = new Set([
  "node_modules",
  ".git",
  "dist",
  "build",
  ".next",
  ".nuxt",
  ".svelte-kit",
  ".cache",
  ".vite",
  ".turbo",
  ".parcel-cache",
  ".npm",
  ".bun",
  ".yarn",
  ".pnpm-store",
  "__pycache__",
  ".pytest_cache",
  ".mypy_cache",
  // Histories a terminal session leaves behind: noise in the project and its versions, and possibly secrets.
  ".bash_history",
  ".python_history",
  ".node_repl_history",
  ".zsh_history",
  ".sh_history",
  ".psql_history",
  ".sqlite_history",
  ".mysql_history",
  ".lesshst",
  ".wget-hsts",
  ".viminfo",
]);

/** A folder or file name skipped wherever it appears. */
export const isIgnoredName = (name: string): boolean => IGNORED_SEGMENTS.has(name);

/**
 * Build output folders ignored only at the project's root, where publishing looks for them (`out` is
 * Next.js's static export): a source folder of that name deeper down, such as `src/out`, still syncs.
 */
const IGNORED_AT_ROOT = new Set(["out"]);

export function isIgnoredPath(path: string): boolean {
  const segments = path.split("/");
  return IGNORED_AT_ROOT.has(segments[0]!) || segments.some((segment) => IGNORED_SEGMENTS.has(segment));
}
