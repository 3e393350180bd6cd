/**
 * A project's git remote: its status, a push's and a pull's result, and a project imported from a repository.
 * Part of the API's answer schemas: ./index.ts re-exports them all.
 */
import * as z from "zod/mini";
import { projectSchema } from "./projects";

/** A project's git remote (`GET /api/projects/{id}/git`, null when not connected): never the token. */
export const gitCommitInfoSchema = z.object({ oid: z.string(), message: z.string(), author: z.string(), date: z.string() });
export type GitCommitInfo = z.infer<typeof gitCommitInfoSchema>;
export const gitStatusSchema = z.object({
  url: z.string(),
  branch: z.string(),
  username: z.nullable(z.string()),
  hasToken: z.boolean(),
  autoPush: z.boolean(),
  lastPushedCommit: z.nullable(z.string()),
  lastPulledCommit: z.nullable(z.string()),
  /** Files changed here since the last sync. */
  ahead: z.number(),
  /** Commits on the remote since the last sync (counted up to 50). */
  behind: z.number(),
  status: z.enum(["up_to_date", "ahead", "behind", "diverged", "unreachable"]),
  error: z.optional(z.string()),
  commits: z.array(gitCommitInfoSchema),
});
export type GitStatus = z.infer<typeof gitStatusSchema>;
export const gitStatusOrNullSchema = z.nullable(gitStatusSchema);
export const gitPushResultSchema = z.object({ pushed: z.boolean(), commit: z.nullable(z.string()), files: z.number() });
export type GitPushResult = z.infer<typeof gitPushResultSchema>;
const skippedGitFileSchema = z.object({ path: z.string(), reason: z.string() });
export type SkippedGitFile = z.infer<typeof skippedGitFileSchema>;
export const gitPullResultSchema = z.object({
  upToDate: z.boolean(),
  commit: z.string(),
  versionId: z.optional(z.string()),
  written: z.number(),
  deleted: z.number(),
  merged: z.array(z.string()),
  skipped: z.array(skippedGitFileSchema),
  lfsPointers: z.array(z.string()),
});
export type GitPullResult = z.infer<typeof gitPullResultSchema>;
/** A project made from a git repository: the project, and what the import left out. */
export const gitImportedProjectSchema = z.extend(projectSchema, {
  git: z.object({ commit: z.string(), skipped: z.array(skippedGitFileSchema), lfsPointers: z.array(z.string()) }),
});
