/** The chat preview panel's width and collapsed state, kept in localStorage (see preview-panel-prefs.ts). */
import { useCallback, useState } from "react";
import { type PanelPrefs, readPanelPrefs, writePanelPrefs } from "./preview-panel-prefs";

const storage = () => (typeof localStorage === "undefined" ? null : localStorage);

export function usePreviewPanelPrefs() {
  const [prefs, setPrefs] = useState<PanelPrefs>(() => readPanelPrefs(storage()));
  /** `remember: false` while dragging: the width is stored once, when the drag ends. */
  const setWidth = useCallback((width: number, remember = true) => {
    setPrefs((p) => ({ ...p, width }));
    if (remember) writePanelPrefs(storage(), { width });
  }, []);
  const setCollapsed = useCallback((collapsed: boolean) => {
    setPrefs((p) => ({ ...p, collapsed }));
    writePanelPrefs(storage(), { collapsed });
  }, []);
  return { ...prefs, setWidth, setCollapsed };
}
