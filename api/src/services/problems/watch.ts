/**
 * Keeps the Problems list current from the event bus: a file change marks the project's problems stale, and
 * those not reported again within the settle window are removed (a fix made them go away); the `app`
 * process's output lines (`process.output`, published by the process supervisor) are read for error lines.
 *
 * @example
 * const stop = startProblemsWatch(ctx);
 */
import * as rows from "../../db/problems";
import { type BusEvent, type FileBusEvent, isFileEvent } from "../../events/types";
import type { ServiceContext } from "../context";
import { ingestServerOutput } from "./server-output";
import { announceChanged } from "./store";
import { DEFAULT_SETTLE_MS, type OutputLine, type ProblemsOptions } from "./types";

/**
 * The supervisor's output event, read loosely: the process service defines its own type, and this module
 * must not depend on it.
 */
type ProcessOutputEvent = { type: "process.output"; projectId: string; name: string; lines: OutputLine[] };

function asProcessOutput(event: unknown): ProcessOutputEvent | null {
  const e = event as Partial<ProcessOutputEvent> | null;
  if (!e || e.type !== "process.output" || typeof e.projectId !== "string" || !Array.isArray(e.lines)) return null;
  return e as ProcessOutputEvent;
}

/**
 * When the change happened: the file row's time (the event may be heard later, after the new code already
 * ran), never later than now; a deletion carries the old row, so it counts from when it is heard.
 */
function changedAt(event: FileBusEvent): Date {
  const now = Date.now();
  if (event.type === "file.deleted") return new Date(now);
  const at = Date.parse(event.file.updatedAt);
  return new Date(Number.isFinite(at) ? Math.min(at, now) : now);
}

export function startProblemsWatch(ctx: ServiceContext, options: ProblemsOptions = {}): () => void {
  const settleMs = options.settleMs ?? DEFAULT_SETTLE_MS;
  const sweeps = new Map<string, ReturnType<typeof setTimeout>>();
  const warn = (what: string) => (error: unknown) => ctx.logger.warn(what, { error: String(error) });

  const sweepLater = (projectId: string, ownerId: string) => {
    clearTimeout(sweeps.get(projectId));
    sweeps.set(
      projectId,
      setTimeout(() => {
        sweeps.delete(projectId);
        void rows
          .deleteStaleProblems(ctx.sql, projectId, new Date(Date.now() - settleMs))
          .then((removed) => removed > 0 && announceChanged(ctx, projectId, ownerId), warn("stale problems not swept"));
      }, settleMs + 50),
    );
  };

  const unsubscribe = ctx.events.subscribe((event: BusEvent) => {
    if (isFileEvent(event)) {
      const { projectId, ownerId } = event;
      ctx.logger.debug("problems made stale by a file change", { projectId, type: event.type, path: event.file.path, origin: event.origin });
      void rows
        .markProblemsStale(ctx.sql, projectId, changedAt(event))
        .then((marked) => marked > 0 && sweepLater(projectId, ownerId), warn("problems not marked stale"));
      return;
    }
    const output = asProcessOutput(event);
    if (output?.name === "app") void ingestServerOutput(ctx, output.projectId, output.lines).catch(warn("app output not read for problems"));
  });

  return () => {
    unsubscribe();
    for (const timer of sweeps.values()) clearTimeout(timer);
    sweeps.clear();
  };
}
