/**
 * Each instance looks for answers left 'running' by a server that died (SIGKILL, crash, lost machine) and
 * marks them failed with a note, so the chat shows what happened and the user can send again. A live
 * run refreshes its message far more often than the threshold, so only abandoned ones match.
 *
 * @example
 * const stop = startAbandonedRunSweeper({ sql, logger, staleRunMs: 120_000 });
 * // at shutdown: stop();
 */
import type { Sql } from "../../db/client";
import { failStaleRuns } from "../../db/message-runs";
import type { Logger } from "../../lib/logger";

/** Appended to an answer whose server died without saving it (see `staleRunMs`). */
export const ABANDONED_NOTE = "**Error:** the server running this answer stopped before it finished.";

export function startAbandonedRunSweeper(deps: { sql: Sql; logger: Logger; staleRunMs: number }): () => void {
  let busy = false;
  const sweep = async () => {
    if (busy) return;
    busy = true;
    try {
      const failed = await failStaleRuns(deps.sql, deps.staleRunMs / 1000, ABANDONED_NOTE);
      for (const run of failed) deps.logger.warn("abandoned agent run marked failed", { messageId: run.id, projectId: run.projectId });
    } catch (error) {
      deps.logger.warn("abandoned-run sweep failed", { error: String(error) });
    } finally {
      busy = false;
    }
  };
  // Twice per threshold: a dead server's run is marked failed between 1x and 1.5x the threshold after it died.
  const timer = setInterval(sweep, Math.max(500, deps.staleRunMs / 2));
  timer.unref?.();
  return () => clearInterval(timer);
}

/** How often a live run refreshes its message: well inside the threshold, at most every 20 s. */
export const heartbeatFor = (staleRunMs: number) => Math.max(100, Math.min(20_000, Math.floor(staleRunMs / 4)));
