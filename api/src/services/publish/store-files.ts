/**
 * A deployment's files go into the object store as content-addressed blobs (`blobs/sha256/<hash>`), the
 * same objects versions use: identical bytes are stored once, whichever project or deployment holds them.
 * The blob protocol of db/blobs.ts applies: touch the rows first, put what is missing, then mark it stored.
 */
import * as blobs from "../../db/blobs";
import type { Manifest } from "../../db/versions";
import type { ServiceContext } from "../context";
import { DEFAULT_MODE, sha256Hex } from "../versions/snapshot";
import { forEachLimit } from "../versions/project-lock";
import type { OutputFile } from "./build-output";

export async function storeDeploymentFiles(ctx: ServiceContext, files: OutputFile[]): Promise<{ manifest: Manifest; bytes: number }> {
  const hashed = files.map((f) => ({ ...f, sha256: sha256Hex(f.bytes) }));
  const missing = await blobs.touchBlobs(
    ctx.sql,
    hashed.map((f) => ({ sha256: f.sha256, size: f.bytes.length })),
  );
  const byHash = new Map(hashed.map((f) => [f.sha256, f.bytes]));
  const stored: string[] = [];
  await forEachLimit([...missing], 8, async (sha256) => {
    await ctx.store.put(blobs.blobKey(sha256), byHash.get(sha256)!);
    stored.push(sha256);
  });
  await blobs.markStored(ctx.sql, stored);
  const manifest: Manifest = {};
  let bytes = 0;
  for (const f of hashed) {
    manifest[f.path] = [f.sha256, f.bytes.length, DEFAULT_MODE];
    bytes += f.bytes.length;
  }
  return { manifest, bytes };
}

/** A project with no build step publishes its files as they are, minus dot-files (.env and the like). */
export function staticManifest(version: Manifest): { manifest: Manifest; bytes: number } {
  const manifest: Manifest = {};
  let bytes = 0;
  for (const [path, entry] of Object.entries(version)) {
    if (path.split("/").some((part) => part.startsWith(".") || part === "node_modules")) continue;
    manifest[path] = entry;
    bytes += entry[1];
  }
  return { manifest, bytes };
}
