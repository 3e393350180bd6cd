/**
 * Records problems for a project (deduplicated, counted, at most MAX_PROBLEMS) and tells the owner's
 * browsers the list changed (`problems.changed` on the bus, at most one per project every
 * CHANGED_THROTTLE_MS per instance, so a page throwing in a loop does not flood the WebSocket).
 */
import { MAX_PROBLEMS } from "@shared/schemas/problems";
import * as rows from "../../db/problems";
import type { ServiceContext } from "../context";
import { dedupeKey, headline } from "./headline";
import type { ProblemInput } from "./types";

export const CHANGED_THROTTLE_MS = 200;

type Throttle = { timer: ReturnType<typeof setTimeout> | null; again: boolean };
const throttles = new Map<string, Throttle>();

/** Publishes `problems.changed` now, or once at the end of the current throttle window. Never rejects. */
export function announceChanged(ctx: Pick<ServiceContext, "events" | "logger">, projectId: string, ownerId: string): void {
  const publish = () =>
    void ctx.events
      .publish({ type: "problems.changed", projectId, ownerId })
      .catch((error) => ctx.logger.warn("problems.changed not published", { projectId, error: String(error) }));
  const current = throttles.get(projectId);
  if (current) {
    current.again = true;
    return;
  }
  publish();
  const entry: Throttle = { timer: null, again: false };
  entry.timer = setTimeout(() => {
    throttles.delete(projectId);
    if (entry.again) announceChanged(ctx, projectId, ownerId);
  }, CHANGED_THROTTLE_MS);
  throttles.set(projectId, entry);
}

/** Records each problem of the batch, keeps the project at MAX_PROBLEMS, and announces a change. */
export async function recordProblems(ctx: ServiceContext, projectId: string, ownerId: string, problems: ProblemInput[]): Promise<void> {
  let changed = false;
  for (const p of problems) {
    const message = headline(p.message);
    if (!message) continue;
    const counted = await rows.recordOccurrence(ctx.sql, projectId, {
      key: dedupeKey({ ...p, message }),
      source: p.source,
      message,
      detail: p.detail,
      file: p.file,
      line: p.line,
      seenAt: p.seenAt,
      pageLoadedAt: p.pageLoadedAt ?? null,
      foundByCheck: p.foundByCheck ?? false,
    });
    ctx.logger.debug("problem seen", { projectId, source: p.source, message: message.slice(0, 120), seenAt: p.seenAt.toISOString(), counted });
    changed ||= counted;
  }
  if (!changed) return;
  await rows.trimProblems(ctx.sql, projectId, MAX_PROBLEMS);
  announceChanged(ctx, projectId, ownerId);
}
