/**
 * File contents as content-addressed blobs: the file service stores what it writes at `blobs/sha256/<hash>`
 * and records the hash on the file's row, so a version (which names blobs by hash) never reads back what a
 * save just stored. Older content, written under `projects/<id>/files/` before hashes were kept, still has
 * its own object, deleted when its file is next written or deleted.
 *
 * @example
 * const { storageKey, sha256 } = await storeContent(ctx, bytes); // one put
 */
import * as blobs from "../db/blobs";
import type { StoredContent } from "../db/files";
import type { ServiceContext } from "./context";

export const sha256Hex = (bytes: Uint8Array) => new Bun.CryptoHasher("sha256").update(bytes).digest("hex");

const isBlobKey = (key: string) => key.startsWith(blobs.blobKey(""));

/**
 * Stores `bytes` as their blob: one put, touching the blob's row first so the retention sweep leaves it
 * alone until a row names it (the protocol in db/blobs.ts). The put is made even when the row says the blob
 * is stored: the same bytes again cost one write, and a file never rests on a row's word alone. Nothing to
 * undo if the caller then fails: a blob no file or version names is swept after the grace period.
 */
export async function storeContent(ctx: ServiceContext, bytes: Uint8Array): Promise<{ storageKey: string; sha256: string }> {
  const sha256 = sha256Hex(bytes);
  const missing = await blobs.touchBlobs(ctx.sql, [{ sha256, size: bytes.length }]);
  await ctx.store.put(blobs.blobKey(sha256), bytes);
  if (missing.size > 0) await blobs.markStored(ctx.sql, [sha256]);
  return { storageKey: blobs.blobKey(sha256), sha256 };
}

/**
 * The content a write replaced or a delete removed, when the caller expected other content there
 * (`expectedKey`: a restore names the key it captured, null for "no file"): returned with its hash and
 * kept as a blob, so the caller can record it in a version. A blob's content stays where it is; an old
 * per-file object is hashed and stored as a blob first. Answers null when the content was the expected one.
 */
export async function unexpectedContent(
  ctx: ServiceContext,
  previous: StoredContent,
  expectedKey: string | null | undefined,
): Promise<{ sha256: string; size: number } | null> {
  if (expectedKey === undefined || previous.storageKey === expectedKey) return null;
  if (previous.sha256 && isBlobKey(previous.storageKey)) {
    await blobs.touchBlobs(ctx.sql, [{ sha256: previous.sha256, size: previous.size }]);
    return { sha256: previous.sha256, size: previous.size };
  }
  const bytes = await ctx.store.get(previous.storageKey);
  if (!bytes) return null;
  const { sha256 } = await storeContent(ctx, bytes);
  return { sha256, size: bytes.length };
}

/** Deletes an old per-file content object that no row points at any more; blobs are left to the sweep. */
export async function releaseContent(ctx: ServiceContext, storageKey: string): Promise<void> {
  if (isBlobKey(storageKey)) return;
  await ctx.store.delete(storageKey);
}
