/** Paths that never sync between sandbox and storage: dependencies, VCS data, build output, caches. */
const IGNORED_SEGMENTS = new Set(["node_modules", ".git", "dist", "build", ".next", ".cache", ".vite", "__pycache__", ".turbo", ".parcel-cache", ".npm", ".bun"]);

export function isIgnoredPath(path: string): boolean {
  return path.split("/").some((segment) => IGNORED_SEGMENTS.has(segment));
}
