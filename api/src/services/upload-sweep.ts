/**
 * Deletes chat images uploaded but never attached to a sent message (a message typed and abandoned, or
 * uploads made only to fill the disk) once they are a day old. Safe with several instances: each batch's
 * rows are deleted inside a transaction that also deletes their objects, rows locked by another instance's
 * sweep are skipped, and a failed object delete rolls its rows back for the next round.
 *
 * @example
 * const stop = startUploadSweep(ctx);           // every 10 minutes, from a minute after start
 * await sweepUnattachedUploads(ctx, { maxAgeSeconds: 0 }); // in a test: everything unattached, now
 */
import type { Sql } from "../db/client";
import { deleteStaleUploads } from "../db/uploads";
import type { ServiceContext } from "./context";
import { uploadedImageKey } from "./images";

export const UNATTACHED_UPLOAD_MAX_AGE_SECONDS = 24 * 3600;
const BATCH = 100;

/** Deletes unattached uploads older than `maxAgeSeconds` (default a day); returns how many went. */
export async function sweepUnattachedUploads(ctx: ServiceContext, options: { maxAgeSeconds?: number } = {}): Promise<number> {
  const maxAge = options.maxAgeSeconds ?? UNATTACHED_UPLOAD_MAX_AGE_SECONDS;
  let total = 0;
  for (;;) {
    const deleted = await ctx.sql.begin(async (tx) => {
      const rows = await deleteStaleUploads(tx as unknown as Sql, maxAge, BATCH);
      for (const row of rows) await ctx.store.delete(uploadedImageKey(row.projectId, row.name));
      return rows.length;
    });
    total += deleted;
    if (deleted < BATCH) return total;
  }
}

/** Sweeps now and then (every 10 minutes by default); returns the function that stops it. */
export function startUploadSweep(ctx: ServiceContext, options: { intervalMs?: number } = {}): () => void {
  let running = false;
  const tick = async () => {
    if (running) return;
    running = true;
    try {
      const deleted = await sweepUnattachedUploads(ctx);
      if (deleted) ctx.logger.info("unattached uploads deleted", { deleted });
    } catch (error) {
      ctx.logger.warn("unattached upload sweep failed", { error: String(error) });
    } finally {
      running = false;
    }
  };
  const first = setTimeout(tick, 60_000);
  const timer = setInterval(tick, options.intervalMs ?? 10 * 60_000);
  first.unref?.();
  timer.unref?.();
  return () => {
    clearTimeout(first);
    clearInterval(timer);
  };
}
