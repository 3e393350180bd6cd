/**
 * Taking a version: the project's files become a manifest (path → sha256, size, mode), stored as one
 * `versions` row (a delta over a shared full manifest, see db/versions.ts). The file service stores every
 * content as its blob (`blobs/sha256/<hash>`) and records the hash on the file's row as it writes, so a
 * version reads and writes no object at all; only content written before hashes were kept is read, once.
 * A 1,000-file project with one changed file costs one small row.
 *
 * @example
 * const { version } = await takeVersion(ctx, { projectId, source: "manual", label: "Before the redesign" });
 */
import type { VersionSource } from "@shared/schemas/versions";
import * as blobs from "../../db/blobs";
import { recordFileHashes } from "../../db/files";
import * as versions from "../../db/versions";
import type { Manifest, VersionRow, VersionWithManifest } from "../../db/versions";
import { sha256Hex, storeContent } from "../content-blobs";
import type { ServiceContext } from "../context";
import { captureData, type DataState, NO_DATA, sameData } from "./data-state";
import { forEachLimit, withProjectLock } from "./project-lock";

export { sha256Hex } from "../content-blobs";

/** Files have no permissions of their own yet; every entry records a plain, non-executable file. */
export const DEFAULT_MODE = 0o644;
/** User edits within this long of the first one are one version. */
export const USER_COALESCE_MS = 60_000;

export type TakeVersion = {
  projectId: string;
  source: VersionSource;
  label: string;
  messageId?: string | null;
  /** Record a version even when nothing changed since the newest one (a named "Save version"). */
  force?: boolean;
  /** false: a 'user' version that never replaces the one before it. */
  coalesce?: false;
};

export type Captured = { manifest: Manifest; files: blobs.FileWithHash[] };
/** What a version records: the files' manifest and the database's data. */
export type ProjectState = { manifest: Manifest; data: DataState };
export type Taken = { version: VersionRow; created: boolean };

/**
 * The project's files as a manifest, with every blob it names stored and marked in use. Blobs already in
 * `baseline` (an existing version, which retention never deletes while it is the newest) are not touched.
 */
export async function captureManifest(ctx: ServiceContext, projectId: string, baseline?: Manifest | null): Promise<Captured> {
  const rows = await blobs.listFilesWithHashes(ctx.sql, projectId);
  const hashed: { storageKey: string; sha256: string }[] = [];
  // Content written before hashes were kept: read once, stored as its blob, its hash recorded on the row.
  await forEachLimit(
    rows.filter((row) => !row.sha256),
    8,
    async (row) => {
      const bytes = await ctx.store.get(row.storageKey);
      if (!bytes) return; // replaced or deleted while we listed: the next version has it
      row.sha256 = (await storeContent(ctx, bytes)).sha256;
      row.size = bytes.length;
      hashed.push({ storageKey: row.storageKey, sha256: row.sha256 });
    },
  );
  await recordFileHashes(ctx.sql, hashed);
  const present = rows.filter((row) => row.sha256 !== null);

  const known = new Set(Object.values(baseline ?? {}).map(([sha256]) => sha256));
  const toTouch = present.filter((f) => !known.has(f.sha256!)).map((f) => ({ sha256: f.sha256!, size: f.size, storageKey: f.storageKey }));
  const missing = await blobs.touchBlobs(ctx.sql, toTouch);
  // Only a hash recorded from an old per-file object whose blob was swept since: stored again from that object.
  const keyOf = new Map(toTouch.map((f) => [f.sha256, f.storageKey]));
  const stored: string[] = [];
  await forEachLimit([...missing], 8, async (sha256) => {
    const key = keyOf.get(sha256)!;
    const bytes = key === blobs.blobKey(sha256) ? null : await ctx.store.get(key);
    if (!bytes || sha256Hex(bytes) !== sha256) return; // its file changed under us; the blob stays unstored
    await ctx.store.put(blobs.blobKey(sha256), bytes);
    stored.push(sha256);
  });
  await blobs.markStored(ctx.sql, stored);

  const unstored = new Set([...missing].filter((h) => !stored.includes(h)));
  const files = present.filter((f) => !unstored.has(f.sha256!)).sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const manifest: Manifest = {};
  for (const f of files) manifest[f.path] = [f.sha256!, f.size, DEFAULT_MODE];
  return { manifest, files };
}

/** The files and the data as they are now (see captureManifest and data-state.ts). */
export async function captureState(ctx: ServiceContext, projectId: string, latest?: ProjectState | null): Promise<Captured & ProjectState> {
  const captured = await captureManifest(ctx, projectId, latest?.manifest);
  return { ...captured, data: await captureData(ctx, projectId, latest?.data) };
}

export const sameState = (a: ProjectState, b: ProjectState) => sameManifest(a.manifest, b.manifest) && sameData(a.data, b.data);

/** A version row as the state it records. */
export const stateOf = (v: VersionWithManifest): ProjectState => ({ manifest: v.manifest, data: v.dataState });

export function sameManifest(a: Manifest, b: Manifest): boolean {
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((path) => b[path]?.[0] === a[path]![0] && b[path]?.[2] === a[path]![2]);
}

/** Files added, removed or changed from `before` to `after`, and the bytes of those added or changed. */
export function changeStats(before: Manifest | null, after: Manifest): { filesChanged: number; bytes: number } {
  let filesChanged = 0;
  let bytes = 0;
  for (const [path, [sha256, size]] of Object.entries(after)) {
    if (before?.[path]?.[0] !== sha256) {
      filesChanged++;
      bytes += size;
    }
  }
  if (before) for (const path of Object.keys(before)) if (!(path in after)) filesChanged++;
  return { filesChanged, bytes };
}

/**
 * Records `captured` as a new version after `latest`, unless nothing changed (then `latest` is answered).
 * A user edit within a minute of the user version it follows replaces that version.
 */
export async function recordVersion(ctx: ServiceContext, input: TakeVersion, captured: ProjectState, latest: VersionWithManifest | null): Promise<Taken> {
  if (latest && !input.force && sameState(stateOf(latest), captured)) return { version: latest, created: false };
  const now = Date.now();
  const coalesce =
    input.source === "user" && input.coalesce !== false && latest?.source === "user" && latest.coalesceUntil !== null && latest.coalesceUntil.getTime() > now;
  let parent: VersionWithManifest | null = latest;
  if (coalesce) {
    parent = latest!.parentId ? await versions.findVersion(ctx.sql, input.projectId, latest!.parentId) : null;
  }
  const version = await versions.insertVersion(
    ctx.sql,
    {
      id: crypto.randomUUID(),
      projectId: input.projectId,
      parentId: parent?.id ?? null,
      source: input.source,
      label: input.label,
      messageId: input.messageId ?? null,
      manifest: captured.manifest,
      ...changeStats(parent?.manifest ?? null, captured.manifest),
      data: captured.data,
      dataChanged: !sameData(parent?.dataState ?? NO_DATA, captured.data),
      coalesceUntil: input.source !== "user" || input.coalesce === false ? null : coalesce ? latest!.coalesceUntil : new Date(now + USER_COALESCE_MS),
    },
    { baseManifestId: latest?.baseManifestId ?? null, replaces: coalesce ? latest!.id : undefined },
  );
  return { version, created: true };
}

/** Takes a version of the project's files and data now (the caller has checked the project is the caller's). */
export function takeVersion(ctx: ServiceContext, input: TakeVersion): Promise<Taken> {
  return withProjectLock(ctx.sql, input.projectId, () => takeVersionLocked(ctx, input));
}

/** `takeVersion` for callers already holding the project's lock (a restore). */
export async function takeVersionLocked(ctx: ServiceContext, input: TakeVersion): Promise<Taken & Captured & ProjectState> {
  const latest = await versions.latestVersion(ctx.sql, input.projectId);
  const captured = await captureState(ctx, input.projectId, latest && stateOf(latest));
  return { ...(await recordVersion(ctx, input, captured, latest)), ...captured };
}
