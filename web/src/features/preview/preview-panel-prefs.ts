/**
 * The chat's preview side panel, remembered per browser: its width and whether it is collapsed, and the
 * device width the Preview frame shows the app at (desktop, tablet 768 px, phone 390 px). Values
 * from storage are checked (another version of the app, or a person, may have written anything there) and
 * the width always leaves the chat a usable column.
 *
 * @example
 * const prefs = readPanelPrefs(localStorage);   // { width: 480, collapsed: false }
 * clampPanelWidth(2000, 1200)                   // 800: the chat keeps 400 px
 */
export const PANEL_WIDTH_KEY = "chat-preview-panel-width";
export const PANEL_COLLAPSED_KEY = "chat-preview-panel-collapsed";
export const DEFAULT_PANEL_WIDTH = 480;
export const MIN_PANEL_WIDTH = 320;
/** The chat column never gets narrower than this beside the panel. */
export const MIN_CHAT_WIDTH = 400;
/** The side panel shows on screens 1280 px and wider; narrower ones leave the chat the whole width. */
export const PREVIEW_PANEL_QUERY = "(min-width: 1280px)";

export type PanelPrefs = { width: number; collapsed: boolean };
type Storage = Pick<globalThis.Storage, "getItem" | "setItem">;

/** A width that fits beside the chat in a row `available` px wide, never under the minimum. */
export function clampPanelWidth(width: number, available: number): number {
  const max = Math.max(MIN_PANEL_WIDTH, available - MIN_CHAT_WIDTH);
  const value = Number.isFinite(width) ? Math.round(width) : DEFAULT_PANEL_WIDTH;
  return Math.min(Math.max(value, MIN_PANEL_WIDTH), max);
}

export function readPanelPrefs(storage: Storage | null): PanelPrefs {
  const safe = (key: string) => {
    try {
      return storage?.getItem(key) ?? null;
    } catch {
      return null; // storage blocked (privacy settings): the defaults apply
    }
  };
  const stored = Number(safe(PANEL_WIDTH_KEY));
  const width = Number.isFinite(stored) && stored >= MIN_PANEL_WIDTH ? Math.round(stored) : DEFAULT_PANEL_WIDTH;
  return { width, collapsed: safe(PANEL_COLLAPSED_KEY) === "true" };
}

export function writePanelPrefs(storage: Storage | null, prefs: Partial<PanelPrefs>): void {
  try {
    if (prefs.width !== undefined) storage?.setItem(PANEL_WIDTH_KEY, String(Math.round(prefs.width)));
    if (prefs.collapsed !== undefined) storage?.setItem(PANEL_COLLAPSED_KEY, String(prefs.collapsed));
  } catch {
    // Not remembered (storage full or blocked): the panel still works for this visit.
  }
}

/** The width the Preview frame shows the app at: the whole frame, or a tablet's or a phone's. */
export const PREVIEW_DEVICES = ["desktop", "tablet", "phone"] as const;
export type PreviewDevice = (typeof PREVIEW_DEVICES)[number];
/** CSS pixels of the frame's page; null: as wide as the frame. */
export const DEVICE_WIDTHS: Record<PreviewDevice, number | null> = { desktop: null, tablet: 768, phone: 390 };
export const PREVIEW_DEVICE_KEY = "preview-device";

export function readPreviewDevice(storage: Storage | null): PreviewDevice {
  let stored: string | null = null;
  try {
    stored = storage?.getItem(PREVIEW_DEVICE_KEY) ?? null;
  } catch {
    // storage blocked: desktop
  }
  return PREVIEW_DEVICES.find((d) => d === stored) ?? "desktop";
}

export function writePreviewDevice(storage: Storage | null, device: PreviewDevice): void {
  try {
    storage?.setItem(PREVIEW_DEVICE_KEY, device);
  } catch {
    // Not remembered: the choice holds for this visit.
  }
}
