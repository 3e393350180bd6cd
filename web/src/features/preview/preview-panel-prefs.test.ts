import { expect, test } from "bun:test";
import {
  clampPanelWidth,
  DEFAULT_PANEL_WIDTH,
  DEVICE_WIDTHS,
  MIN_PANEL_WIDTH,
  readPanelPrefs,
  readPreviewDevice,
  writePanelPrefs,
  writePreviewDevice,
} from "./preview-panel-prefs";

const memoryStorage = () => {
  const data = new Map<string, string>();
  return { getItem: (k: string) => data.get(k) ?? null, setItem: (k: string, v: string) => void data.set(k, v), data };
};

test("the width leaves the chat its column and never goes under the minimum", () => {
  expect(clampPanelWidth(500, 1200)).toBe(500);
  expect(clampPanelWidth(2000, 1200)).toBe(800);
  expect(clampPanelWidth(100, 1200)).toBe(MIN_PANEL_WIDTH);
  // A row too narrow for both still shows the panel at its minimum.
  expect(clampPanelWidth(500, 600)).toBe(MIN_PANEL_WIDTH);
  expect(clampPanelWidth(Number.NaN, 1200)).toBe(DEFAULT_PANEL_WIDTH);
  expect(clampPanelWidth(480.6, 1200)).toBe(481);
});

test("prefs are written and read back; nothing or nonsense stored reads as the defaults", () => {
  const storage = memoryStorage();
  expect(readPanelPrefs(storage)).toEqual({ width: DEFAULT_PANEL_WIDTH, collapsed: false });
  writePanelPrefs(storage, { width: 612.4 });
  writePanelPrefs(storage, { collapsed: true });
  expect(readPanelPrefs(storage)).toEqual({ width: 612, collapsed: true });
  storage.data.set("chat-preview-panel-width", "wide");
  storage.data.set("chat-preview-panel-collapsed", "yes");
  expect(readPanelPrefs(storage)).toEqual({ width: DEFAULT_PANEL_WIDTH, collapsed: false });
  expect(readPanelPrefs(null)).toEqual({ width: DEFAULT_PANEL_WIDTH, collapsed: false });
});

test("blocked storage is not an error", () => {
  const blocked = {
    getItem: () => {
      throw new Error("SecurityError");
    },
    setItem: () => {
      throw new Error("QuotaExceededError");
    },
  };
  expect(readPanelPrefs(blocked)).toEqual({ width: DEFAULT_PANEL_WIDTH, collapsed: false });
  expect(() => writePanelPrefs(blocked, { width: 500, collapsed: true })).not.toThrow();
});

test("the device width is kept: desktop by default, tablet 768 px, phone 390 px; nonsense or blocked storage reads as desktop", () => {
  const storage = memoryStorage();
  expect(readPreviewDevice(storage)).toBe("desktop");
  writePreviewDevice(storage, "phone");
  expect(readPreviewDevice(storage)).toBe("phone");
  writePreviewDevice(storage, "tablet");
  expect(readPreviewDevice(storage)).toBe("tablet");
  expect([DEVICE_WIDTHS.desktop, DEVICE_WIDTHS.tablet, DEVICE_WIDTHS.phone]).toEqual([null, 768, 390]);
  storage.data.set("preview-device", "watch");
  expect(readPreviewDevice(storage)).toBe("desktop");
  expect(readPreviewDevice(null)).toBe("desktop");
  const blocked = {
    getItem: () => {
      throw new Error("SecurityError");
    },
    setItem: () => {
      throw new Error("QuotaExceededError");
    },
  };
  expect(readPreviewDevice(blocked)).toBe("desktop");
  expect(() => writePreviewDevice(blocked, "phone")).not.toThrow();
});
