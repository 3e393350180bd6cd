/** Paths that never sync between sandbox and storage: dependencies, VCS data, build output, caches. */
const IGNORED_SEGMENTS = new Set(["node_modules", ".git", "dist", "build", ".next", ".cache", ".vite", "__pycache__", ".turbo", ".parcel-cache", ".npm", ".bun"]);

/**
 * Build output folders ignored only at the project's root, where publishing looks for them (`out` is
 * Next.js's static export): a source folder of that name deeper down, such as `src/out`, still syncs.
 */
const IGNORED_AT_ROOT = new Set(["out"]);

export function isIgnoredPath(path: string): boolean {
  const segments = path.split("/");
  return IGNORED_AT_ROOT.has(segments[0]!) || segments.some((segment) => IGNORED_SEGMENTS.has(segment));
}
