/**
 * Versions (project history): what the API answers for `/api/projects/{id}/versions…` and what it accepts.
 * A version is an immutable manifest of the project's files; contents are addressed by their SHA-256.
 */
import { z } from "zod";

export const versionSources = ["agent", "user", "restore", "manual"] as const;
export type VersionSource = (typeof versionSources)[number];

export const MAX_VERSION_LABEL_LENGTH = 200;

/** One row of the History list. `bytes` is the size of the files this version added or changed. */
export type VersionSummary = {
  id: string;
  createdAt: string;
  label: string;
  source: VersionSource;
  messageId?: string;
  /** Files added, removed or changed against the version before it. */
  filesChanged: number;
  bytes: number;
};

export type VersionEntry = { path: string; sha256: string; size: number; mode: number };

/** A version with its manifest, sorted by path. */
export type VersionDetail = VersionSummary & { files: VersionEntry[] };

export const createVersionSchema = z.object({
  label: z.string().trim().min(1, "Label required").max(MAX_VERSION_LABEL_LENGTH).describe("The name the user gave this version"),
});
export type CreateVersion = z.infer<typeof createVersionSchema>;

export const listVersionsQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50).describe("Versions per page"),
  before: z.uuid().optional().describe("Id of the last version of the previous page: the next page starts after it"),
});
export type ListVersionsQuery = z.infer<typeof listVersionsQuerySchema>;

export type ChangedEntry = { path: string; size: number; fromSha256: string; toSha256: string; fromSize: number };
export type RenamedEntry = { from: string; to: string; sha256: string; size: number };

/** From version `from` to version `to` ("current" names the project's files as they are now). */
export type VersionDiff = {
  from: string;
  to: string;
  added: { path: string; sha256: string; size: number }[];
  removed: { path: string; sha256: string; size: number }[];
  changed: ChangedEntry[];
  /** A path removed and another added with the same content. Those paths are not also in added/removed. */
  renamed: RenamedEntry[];
  /** With `?patch=1`: a unified diff per text file added, removed or changed (binary files are left out). */
  patches?: { path: string; patch: string }[];
};

/** What a restore answers: the version the project now matches and what was done to get there. */
export type RestoreResult = { version: VersionSummary; written: number; deleted: number };
