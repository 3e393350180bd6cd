/**
 * Loading a preview so its host lets this browser in. A preview is its own origin and never gets the app's
 * sign-in, so before framing (or opening) one the SPA asks the API for a one-minute ticket and loads the
 * host's enter URL with the page it wants as `next`: the host sets its own cookie and redirects there. A preview
 * that is not behind this server's proxy (E2B's own hosts), or a ticket that could not be had, loads as is.
 *
 * @example
 * const src = await enteredPreviewUrl(projectId, "http://5173-abc.localhost:3000/?_refresh=1");
 * // "http://5173-abc.localhost:3000/__appbuilder/enter?ticket=…&next=%2F%3F_refresh%3D1"
 */
import type { PreviewTicket } from "@shared/schemas/share-links";
import { api } from "../../api/endpoints";

/** The enter URL for `url` with this ticket, or `url` itself when the ticket is for another origin (or none). */
export function enterUrlFor(ticket: PreviewTicket, url: string): string {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return url;
  }
  if (!ticket.enterUrl || ticket.origin !== target.origin) return url;
  return `${ticket.enterUrl}&next=${encodeURIComponent(`${target.pathname}${target.search}${target.hash}`)}`;
}

/** `url` by way of its host's enter URL; `url` itself when no ticket could be had (the host then says 404). */
export async function enteredPreviewUrl(projectId: string, url: string, signal?: AbortSignal): Promise<string> {
  try {
    return enterUrlFor(await api.sandbox.previewTicket(projectId, { signal }), url);
  } catch (error) {
    if (signal?.aborted) throw error;
    return url;
  }
}

/**
 * Opens the preview in a new tab through its enter URL. The tab is opened at once (inside the click, so no
 * popup blocker stops it) and sent on when the ticket arrives; it never gets a handle on this window.
 */
export function openPreviewInNewTab(projectId: string, url: string): void {
  const tab = window.open("about:blank", "_blank");
  if (!tab) return;
  tab.opener = null;
  void enteredPreviewUrl(projectId, url).then((entered) => tab.location.replace(entered));
}
