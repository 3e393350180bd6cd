/**
 * Versions: the History list, the diff between two versions and a restore's result.
 * Part of the API's answer schemas: ./index.ts re-exports them all.
 */
import * as z from "zod/mini";

export const versionSourceSchema = z.enum(["agent", "user", "restore", "manual"]);
export type VersionSource = z.infer<typeof versionSourceSchema>;
/** One row of the History list. `bytes` is the size of the files this version added or changed. */
export const versionSummarySchema = z.object({
  id: z.string(),
  createdAt: z.string(),
  label: z.string(),
  source: versionSourceSchema,
  messageId: z.optional(z.string()),
  /** Files added, removed or changed against the version before it. */
  filesChanged: z.number(),
  bytes: z.number(),
  /**
   * The project's database in this version: "none" (no tables), "included" (restoring puts it back), or
   * "too_large" (over APP_DATABASE_VERSION_MAX_MB: data not included).
   */
  data: z.enum(["none", "included", "too_large"]),
  /** The data differs from the version before (History marks it). */
  dataChanged: z.boolean(),
});
export type VersionSummary = z.infer<typeof versionSummarySchema>;
export const versionListSchema = z.array(versionSummarySchema);

const diffEntrySchema = z.object({ path: z.string(), sha256: z.string(), size: z.number() });
export const changedEntrySchema = z.object({ path: z.string(), size: z.number(), fromSha256: z.string(), toSha256: z.string(), fromSize: z.number() });
export type ChangedEntry = z.infer<typeof changedEntrySchema>;
export const renamedEntrySchema = z.object({ from: z.string(), to: z.string(), sha256: z.string(), size: z.number() });
export type RenamedEntry = z.infer<typeof renamedEntrySchema>;
/** GET /api/projects/{id}/versions/{a}/diff/{b}: from version `from` to version `to` ("current" names the project's files as they are now). */
export const versionDiffSchema = z.object({
  from: z.string(),
  to: z.string(),
  added: z.array(diffEntrySchema),
  removed: z.array(diffEntrySchema),
  changed: z.array(changedEntrySchema),
  /** A path removed and another added with the same content. Those paths are not also in added/removed. */
  renamed: z.array(renamedEntrySchema),
  /** With `?patch=1`: a unified diff per text file added, removed or changed (binary files are left out). */
  patches: z.optional(z.array(z.object({ path: z.string(), patch: z.string() }))),
});
export type VersionDiff = z.infer<typeof versionDiffSchema>;
/** POST /api/projects/{id}/versions/{versionId}/restore: the version the project now matches and what was done to get there. */
export const restoreResultSchema = z.object({
  version: versionSummarySchema,
  written: z.number(),
  deleted: z.number(),
  /** What happened to the project's database: put back as the version had it, already so, or left alone (not included). */
  data: z.enum(["restored", "unchanged", "not_included"]),
});
export type RestoreResult = z.infer<typeof restoreResultSchema>;
