/**
 * Retention: versions older than VERSIONS_KEEP_DAYS go (each project's newest 20 always stay), then the
 * blobs no version, published site or file names any more (files store their content as blobs; images keep
 * their own objects under `projects/<id>/`, which project deletion removes, so the sweep only looks at blobs).
 *
 * Safe while other instances write: a blob is deleted only when no version names it and no writer has
 * touched it for `graceSeconds` (writers touch a blob before a version may name it, and a version is
 * written seconds later), and the sweep holds the blob's row lock while it deletes the object, so a writer
 * of the same bytes waits, then finds the row gone and stores the object again.
 *
 * @example
 * const stop = startVersionRetention(deps, { keepDays: 30 });
 */
import * as blobs from "../../db/blobs";
import type { Sql } from "../../db/client";
import { pruneVersions } from "../../db/versions";
import type { ServiceContext } from "../context";
import { forEachLimit } from "./project-lock";

export const KEEP_NEWEST = 20;
/** Longer than an agent run may last (its "before" version is written when it ends). */
export const DEFAULT_GRACE_SECONDS = 2 * 60 * 60;

export type RetentionOptions = { keepDays: number; keepNewest?: number; graceSeconds?: number; batch?: number };
export type RetentionResult = { versionsDeleted: number; blobsDeleted: number };

export async function runRetention(ctx: ServiceContext, options: RetentionOptions): Promise<RetentionResult> {
  const versionsDeleted = await pruneVersions(ctx.sql, options.keepDays, options.keepNewest ?? KEEP_NEWEST);
  const blobsDeleted = await sweepBlobs(ctx, options.graceSeconds ?? DEFAULT_GRACE_SECONDS, options.batch ?? 500);
  return { versionsDeleted, blobsDeleted };
}

/** Deletes unreferenced, unused blobs in batches; returns how many objects went. */
export async function sweepBlobs(ctx: ServiceContext, graceSeconds: number, batch = 500): Promise<number> {
  let total = 0;
  for (;;) {
    const { claimed, deleted } = (await ctx.sql.begin(async (tx) => {
      const q = tx as unknown as Sql;
      const claimed = await blobs.claimUnusedBlobs(q, graceSeconds, batch);
      const deleted: string[] = [];
      await forEachLimit(claimed, 16, async (sha256) => {
        try {
          await ctx.store.delete(blobs.blobKey(sha256));
          deleted.push(sha256);
        } catch (error) {
          // The row stays, marked not stored: a writer re-puts it, or a later sweep tries again.
          ctx.logger.warn("blob not deleted", { sha256, error: String(error) });
        }
      });
      await blobs.deleteBlobRows(q, deleted);
      return { claimed: claimed.length, deleted: deleted.length };
    })) as { claimed: number; deleted: number };
    total += deleted;
    if (claimed < batch || deleted === 0) return total;
  }
}

/** Runs retention now and then every `intervalMs` (hourly by default); returns the function that stops it. */
export function startVersionRetention(ctx: ServiceContext, options: RetentionOptions & { intervalMs?: number }): () => void {
  let running = false;
  const tick = async () => {
    if (running) return;
    running = true;
    try {
      const result = await runRetention(ctx, options);
      if (result.versionsDeleted || result.blobsDeleted) ctx.logger.info("version retention", result);
    } catch (error) {
      ctx.logger.warn("version retention failed", { error: String(error) });
    } finally {
      running = false;
    }
  };
  const first = setTimeout(tick, 60_000);
  const timer = setInterval(tick, options.intervalMs ?? 60 * 60_000);
  first.unref?.();
  timer.unref?.();
  return () => {
    clearTimeout(first);
    clearInterval(timer);
  };
}
