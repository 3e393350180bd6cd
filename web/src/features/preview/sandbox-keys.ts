/**
 * Query keys for a project's sandbox (preview URL and validity), from one factory. Kept beside the preview
 * feature for now; they belong with the others in api/query-keys.ts.
 */
export const sandboxKeys = {
  all: ["sandbox"] as const,
  project: (projectId: string) => ["sandbox", projectId] as const,
  url: (projectId: string) => ["sandbox", projectId, "url"] as const,
  /** Keyed by sandbox too, so a recreated sandbox starts with a fresh check rather than the old answer. */
  validity: (projectId: string, sandboxId: string) => ["sandbox", projectId, "validity", sandboxId] as const,
};
