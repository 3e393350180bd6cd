/** Holds the sidebar state for the signed-in layout and listens for the Ctrl/Cmd+B shortcut. */
import { type ReactNode, useCallback, useEffect, useMemo, useState } from "react";
import { useIsMobile } from "../../lib/use-media-query";
import { readSidebarCookie, SIDEBAR_SHORTCUT_KEY, SidebarContext, type SidebarState, writeSidebarCookie } from "./sidebar-state";

export function SidebarProvider({ children }: { children: ReactNode }) {
  const isMobile = useIsMobile();
  const [open, setOpen] = useState(() => readSidebarCookie());
  const [openMobile, setOpenMobile] = useState(false);

  const toggle = useCallback(() => {
    if (isMobile) {
      setOpenMobile((current) => !current);
      return;
    }
    writeSidebarCookie(!open);
    setOpen(!open);
  }, [isMobile, open]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key.toLowerCase() !== SIDEBAR_SHORTCUT_KEY || !(event.metaKey || event.ctrlKey)) return;
      if (event.altKey || event.shiftKey) return;
      event.preventDefault();
      toggle();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [toggle]);

  // Leaving the mobile layout (rotating a tablet, say) must not leave an invisible sheet open.
  useEffect(() => {
    if (!isMobile) setOpenMobile(false);
  }, [isMobile]);

  const value = useMemo<SidebarState>(() => ({ open, openMobile, isMobile, setOpenMobile, toggle }), [open, openMobile, isMobile, toggle]);
  return <SidebarContext.Provider value={value}>{children}</SidebarContext.Provider>;
}
