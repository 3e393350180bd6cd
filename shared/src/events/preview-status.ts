/**
 * What the preview proxy's own error pages tell the Preview screen around them (window.postMessage from the
 * framed page to its parent): a browser fires no error event on an iframe whose page loaded with a 502, so
 * without this the screen cannot tell a dead sandbox from a working app.
 *
 * - `stopped`: the sandbox is gone (the screen shows Expired at once).
 * - `not-answering`: the sandbox runs, but nothing listens on the port yet (the app may still be starting).
 */
export const PREVIEW_STATUS_TYPE = "app-builder:preview-status";
export type PreviewStatus = "stopped" | "not-answering";
export type PreviewStatusMessage = { type: typeof PREVIEW_STATUS_TYPE; status: PreviewStatus };

export function isPreviewStatusMessage(value: unknown): value is PreviewStatusMessage {
  if (typeof value !== "object" || value === null) return false;
  const { type, status } = value as Record<string, unknown>;
  return type === PREVIEW_STATUS_TYPE && (status === "stopped" || status === "not-answering");
}
