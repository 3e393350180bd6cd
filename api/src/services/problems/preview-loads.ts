/**
 * Whether a preview of a project is open, and the newest code it has loaded. The reporter in every preview
 * page pings (`loaded`) when the page has loaded, when a hot update has run, and every PING_EVERY_MS while
 * it is open (report.js); the ping says how long ago the code it runs started loading, which the server
 * turns into a time on its own clock. Stored per project, so an agent run's check on any instance can wait
 * for the preview to load its last change (agent/verify.ts).
 *
 * @example
 * await recordPreviewPings(ctx, projectId, reports, new Date());
 * const load = await openPreviewLoad(ctx, projectId); // { loadedAt } or null when no preview is open
 */
import { findPreviewLoad, recordPreviewLoad } from "../../db/preview-loads";
import type { ServiceContext } from "../context";
import type { BrowserReport } from "./browser-report";

/** How often an open page pings: the preview proxy writes it into report.js as it serves it. */
export const PING_EVERY_MS = 10_000;
/**
 * A project whose pages have not pinged for this long has no preview open: two missed pings, which a
 * visible page never misses (a tab hidden for minutes is throttled by the browser to a ping a minute, and
 * counts as closed).
 */
export const PREVIEW_OPEN_MS = 2.5 * PING_EVERY_MS;

/** Records the `loaded` pings of a batch (the newest); the caller records the batch's problems first. */
export async function recordPreviewPings(ctx: ServiceContext, projectId: string, reports: BrowserReport[], receivedAt: Date): Promise<void> {
  const ages = reports.filter((r) => r.kind === "loaded").map((r) => r.loadAgeMs ?? 0);
  if (ages.length === 0) return;
  await recordPreviewLoad(ctx.sql, projectId, receivedAt, new Date(receivedAt.getTime() - Math.min(...ages)));
}

/** The newest load of the project's open previews, or null when none has pinged within PREVIEW_OPEN_MS. */
export async function openPreviewLoad(ctx: ServiceContext, projectId: string, now = new Date()): Promise<{ loadedAt: Date } | null> {
  const row = await findPreviewLoad(ctx.sql, projectId);
  if (!row || row.seenAt.getTime() < now.getTime() - PREVIEW_OPEN_MS) return null;
  return { loadedAt: row.loadedAt };
}
