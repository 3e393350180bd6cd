/**
 * The versions service as the routes see it: every function checks that the project is the caller's
 * (404 otherwise, as for a project that does not exist) before it reads or writes anything.
 *
 * @example
 * const page = await listProjectVersions(ctx, access, { limit: 50 });
 */
import type { VersionDetail, VersionSummary } from "@shared/schemas/versions";
import { blobKey } from "../../db/blobs";
import { findFileByPath } from "../../db/files";
import * as versions from "../../db/versions";
import { AppError, notFound } from "../../lib/errors";
import { isUuid, type ServiceContext } from "../context";
import type { ProjectAccess } from "../access";
import { getProject } from "../projects";
import { takeVersion } from "./snapshot";

import { CURRENT } from "./diff";

export { versionBeforeMessage } from "./before-message";
export { diffVersions } from "./diff";
export { importProjectZip } from "./import-zip";
export { restoreVersion } from "./restore";

export async function listProjectVersions(
  ctx: ServiceContext,
  access: ProjectAccess,
  page: { limit: number; before?: string },
): Promise<{ versions: VersionSummary[]; nextBefore: string | null }> {
  const project = await getProject(ctx, access);
  const rows = await versions.listVersions(ctx.sql, project.id, page);
  return { versions: rows.map(versions.toSummary), nextBefore: rows.length === page.limit ? rows.at(-1)!.id : null };
}

async function ownedVersion(ctx: ServiceContext, access: ProjectAccess, versionId: string) {
  const project = await getProject(ctx, access);
  const version = isUuid(versionId) ? await versions.findVersion(ctx.sql, project.id, versionId) : null;
  if (!version) throw notFound("Version");
  return version;
}

export async function getVersion(ctx: ServiceContext, access: ProjectAccess, versionId: string): Promise<VersionDetail> {
  const version = await ownedVersion(ctx, access, versionId);
  const files = Object.entries(version.manifest)
    .map(([path, [sha256, size, mode]]) => ({ path, sha256, size, mode }))
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { ...versions.toSummary(version), files };
}

/** One file's bytes as they were in that version (or as they are now, for "current": a diff's other side). */
export async function readVersionFile(ctx: ServiceContext, access: ProjectAccess, versionId: string, path: string): Promise<Uint8Array> {
  if (versionId === CURRENT) {
    const project = await getProject(ctx, access);
    const file = await findFileByPath(ctx.sql, project.id, path);
    const bytes = file && (await ctx.store.get(file.storageKey));
    if (!bytes) throw notFound("File");
    return bytes;
  }
  const version = await ownedVersion(ctx, access, versionId);
  const entry = Object.hasOwn(version.manifest, path) ? version.manifest[path] : undefined;
  if (!entry) throw notFound("File");
  const bytes = await ctx.store.get(blobKey(entry[0]));
  if (!bytes) throw new AppError(500, "internal", `The content of ${path} in this version is missing from storage.`);
  return bytes;
}

/** "Save version": always a new version, named by the user, even when nothing changed. */
export async function createManualVersion(ctx: ServiceContext, access: ProjectAccess, label: string): Promise<VersionSummary> {
  const project = await getProject(ctx, access);
  const { version } = await takeVersion(ctx, { projectId: project.id, source: "manual", label, force: true });
  return versions.toSummary(version);
}
