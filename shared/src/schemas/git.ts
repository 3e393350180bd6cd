/**
 * A project's git remote on the wire (`/api/projects/{id}/git…` and the JSON form of POST
 * /api/projects/import): the connect, push and import bodies and the status, push, pull and import answers.
 * A token goes in and never comes back out.
 */
import { z } from "zod";

/** A branch name git accepts (refs/heads/<name>), kept simple: no spaces, `..`, `~^:?*[\`, or leading `-`/`/`. */
export const gitBranchSchema = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .regex(/^(?![-/])(?!.*(?:\.\.|\/\/|@\{))[^\s~^:?*[\\\x00-\x1f\x7f]+(?<![./])$/, "not a valid branch name");

export const connectGitSchema = z.object({
  url: z.string().trim().min(1).max(2000),
  branch: gitBranchSchema.optional(),
  username: z.string().max(200).optional(),
  token: z.string().max(4000).optional(),
  autoPush: z.boolean().optional(),
});
export type ConnectGit = z.infer<typeof connectGitSchema>;

export const pushGitSchema = z.object({ message: z.string().trim().max(2000).optional(), force: z.boolean().optional() });
export type PushGit = z.infer<typeof pushGitSchema>;

export const importGitSchema = z.object({
  gitUrl: z.string().trim().min(1).max(2000),
  branch: gitBranchSchema.optional(),
  username: z.string().max(200).optional(),
  token: z.string().max(4000).optional(),
  name: z.string().max(200).optional(),
});
export type ImportGit = z.infer<typeof importGitSchema>;

export type { GitCommitInfo, GitPullResult, GitPushResult, GitStatus, SkippedGitFile } from "./responses";

/** The 409 of a pull whose sides overlap: nothing was changed. */
export type GitPullConflict = { error: string; code: "conflict"; files: string[] };
