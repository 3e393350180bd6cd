/**
 * Versions (project history): what the API answers for `/api/projects/{id}/versions…` and what it accepts.
 * A version is an immutable manifest of the project's files; contents are addressed by their SHA-256.
 */
import { z } from "zod";

/** What the API answers, inferred from the response schemas (./responses/). */
export type { ChangedEntry, RenamedEntry, RestoreResult, VersionDiff, VersionSource, VersionSummary } from "./responses";
import type { VersionSource, VersionSummary } from "./responses";

export const MAX_VERSION_LABEL_LENGTH = 200;

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
