/**
 * Query keys of the History feature, in the shape of the app's one key factory (api/query-keys.ts), to be
 * folded into it. Everything for a project sits under one prefix, so a restore can refresh it all at once.
 */
export const versionKeys = {
  all: ["versions"] as const,
  project: (projectId: string) => ["versions", projectId] as const,
  list: (projectId: string) => ["versions", projectId, "list"] as const,
  diff: (projectId: string, from: string, to: string) => ["versions", projectId, "diff", from, to] as const,
  file: (projectId: string, versionId: string, path: string) => ["versions", projectId, "file", versionId, path] as const,
};
