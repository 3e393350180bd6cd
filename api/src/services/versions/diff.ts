/**
 * What changed between two versions (or a version and the files as they are now): added, removed,
 * changed and renamed paths, and on request a unified diff per text file.
 *
 * @example
 * const diff = await diffVersions(ctx, access, olderId, "current", { patch: true });
 */
import type { VersionDiff } from "@shared/schemas/versions";
import { blobKey } from "../../db/blobs";
import * as versions from "../../db/versions";
import type { Manifest } from "../../db/versions";
import { notFound } from "../../lib/errors";
import { isUuid, type ServiceContext } from "../context";
import { asText } from "../file-content";
import type { ProjectAccess } from "../access";
import { getProject } from "../projects";
import { forEachLimit } from "./project-lock";
import { captureManifest } from "./snapshot";
import { unifiedDiff } from "./unified-diff";

/** The name that stands for the project's files as they are now, in place of a version id. */
export const CURRENT = "current";
/** Files larger than this get no patch (a diff of a minified bundle helps nobody and costs a lot). */
const MAX_PATCH_FILE_BYTES = 512 * 1024;

export function diffManifests(from: Manifest, to: Manifest): Omit<VersionDiff, "from" | "to" | "patches"> {
  const added: VersionDiff["added"] = [];
  const removed: VersionDiff["removed"] = [];
  const changed: VersionDiff["changed"] = [];
  for (const [path, [sha256, size]] of Object.entries(to)) {
    const before = from[path];
    if (!before) added.push({ path, sha256, size });
    else if (before[0] !== sha256) changed.push({ path, size, toSha256: sha256, fromSha256: before[0], fromSize: before[1] });
  }
  for (const [path, [sha256, size]] of Object.entries(from)) if (!(path in to)) removed.push({ path, sha256, size });

  // A removed path whose exact content reappears at an added path was renamed (each pair used once).
  const renamed: VersionDiff["renamed"] = [];
  const addedByHash = new Map<string, VersionDiff["added"]>();
  for (const entry of added) addedByHash.set(entry.sha256, [...(addedByHash.get(entry.sha256) ?? []), entry]);
  const renamedPaths = new Set<string>();
  for (const entry of removed) {
    const target = addedByHash.get(entry.sha256)?.shift();
    if (!target) continue;
    renamed.push({ from: entry.path, to: target.path, sha256: entry.sha256, size: entry.size });
    renamedPaths.add(entry.path).add(target.path);
  }
  const byPath = (a: { path: string }, b: { path: string }) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
  return {
    added: added.filter((e) => !renamedPaths.has(e.path)).sort(byPath),
    removed: removed.filter((e) => !renamedPaths.has(e.path)).sort(byPath),
    changed: changed.sort(byPath),
    renamed: renamed.sort((a, b) => byPath({ path: a.to }, { path: b.to })),
  };
}

async function manifestOf(ctx: ServiceContext, projectId: string, id: string): Promise<Manifest> {
  if (id === CURRENT) {
    const latest = await versions.latestVersion(ctx.sql, projectId);
    return (await captureManifest(ctx, projectId, latest?.manifest)).manifest;
  }
  const version = isUuid(id) ? await versions.findVersion(ctx.sql, projectId, id) : null;
  if (!version) throw notFound("Version");
  return version.manifest;
}

export async function diffVersions(
  ctx: ServiceContext,
  access: ProjectAccess,
  fromId: string,
  toId: string,
  options: { patch?: boolean } = {},
): Promise<VersionDiff> {
  const project = await getProject(ctx, access);
  const from = await manifestOf(ctx, project.id, fromId);
  const to = await manifestOf(ctx, project.id, toId);
  const diff: VersionDiff = { from: fromId, to: toId, ...diffManifests(from, to) };
  if (options.patch) diff.patches = await patchesFor(ctx, diff);
  return diff;
}

async function patchesFor(ctx: ServiceContext, diff: VersionDiff): Promise<{ path: string; patch: string }[]> {
  const jobs = [
    ...diff.added.map((e) => ({ path: e.path, from: null, to: e.sha256, size: e.size })),
    ...diff.removed.map((e) => ({ path: e.path, from: e.sha256, to: null, size: e.size })),
    ...diff.changed.map((e) => ({ path: e.path, from: e.fromSha256, to: e.toSha256, size: Math.max(e.size, e.fromSize) })),
  ].filter((job) => job.size <= MAX_PATCH_FILE_BYTES);
  const patches: { path: string; patch: string }[] = [];
  const textOf = async (sha256: string | null) => {
    if (sha256 === null) return "";
    const bytes = await ctx.store.get(blobKey(sha256));
    return bytes ? asText(bytes) : null;
  };
  await forEachLimit(jobs, 8, async (job) => {
    const [before, after] = await Promise.all([textOf(job.from), textOf(job.to)]);
    if (before === null || after === null) return; // binary (or missing): no line diff
    patches.push({ path: job.path, patch: unifiedDiff(job.path, before, after, { added: job.from === null, removed: job.to === null }) });
  });
  return patches.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
