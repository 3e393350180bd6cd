/** The Preview frame's device width (desktop, tablet, phone), kept in localStorage (see preview-panel-prefs.ts). */
import { useCallback, useState } from "react";
import { type PreviewDevice, readPreviewDevice, writePreviewDevice } from "./preview-panel-prefs";

const storage = () => (typeof localStorage === "undefined" ? null : localStorage);

export function usePreviewDevice() {
  const [device, setDeviceState] = useState<PreviewDevice>(() => readPreviewDevice(storage()));
  const setDevice = useCallback((next: PreviewDevice) => {
    setDeviceState(next);
    writePreviewDevice(storage(), next);
  }, []);
  return { device, setDevice };
}
