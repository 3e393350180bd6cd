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
import { askPreviewReload, findPreviewLoad, recordPreviewLoad } from "../../db/preview-loads";
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

/**
 * Records the `loaded` pings of a batch (the newest); the caller records the batch's problems first. Returns
 * whether the page that sent them should reload: its code is older than what a check asked for
 * (`reloadStalePreviews`).
 */
export async function recordPreviewPings(ctx: ServiceContext, projectId: string, reports: BrowserReport[], receivedAt: Date): Promise<boolean> {
  const ages = reports.filter((r) => r.kind === "loaded").map((r) => r.loadAgeMs ?? 0);
  if (ages.length === 0) return false;
  const loadedAt = new Date(receivedAt.getTime() - Math.min(...ages));
  const reloadBefore = await recordPreviewLoad(ctx.sql, projectId, receivedAt, loadedAt);
  return reloadBefore !== null && loadedAt.getTime() < reloadBefore.getTime();
}

/**
 * Asks the project's open previews that run code from before `changedAt` to reload: Vite does not tell a
 * hot-reload socket that connects after a change about it, so a page that was still loading when a file
 * changed keeps the old code until it is reloaded. Each such page is answered "reload" on its next ping
 * (within PING_EVERY_MS); a page that loaded since is not.
 */
export async function reloadStalePreviews(ctx: ServiceContext, projectId: string, changedAt: Date): Promise<void> {
  await askPreviewReload(ctx.sql, projectId, changedAt);
}

/** The newest load of the project's open previews, or null when none has pinged within PREVIEW_OPEN_MS. */
export async function openPreviewLoad(ctx: ServiceContext, projectId: string, now = new Date()): Promise<{ loadedAt: Date } | null> {
  const row = await findPreviewLoad(ctx.sql, projectId);
  if (!row || row.seenAt.getTime() < now.getTime() - PREVIEW_OPEN_MS) return null;
  return { loadedAt: row.loadedAt };
}
