/**
 * The signed-in sidebar's state: expanded or collapsed on desktop, kept for 7 days in the
 * `sidebar_state` cookie; a separate open flag for the off-canvas sheet on mobile. Ctrl/Cmd+B toggles whichever
 * applies.
 */
import { createContext, useContext } from "react";

export const SIDEBAR_COOKIE_NAME = "sidebar_state";
export const SIDEBAR_COOKIE_MAX_AGE_S = 60 * 60 * 24 * 7;
export const SIDEBAR_SHORTCUT_KEY = "b";

export type SidebarState = {
  /** Desktop: expanded (true) or collapsed to icons. */
  open: boolean;
  /** Mobile: the sheet is showing. */
  openMobile: boolean;
  isMobile: boolean;
  setOpenMobile: (open: boolean) => void;
  /** Toggles the desktop sidebar or the mobile sheet, whichever applies. */
  toggle: () => void;
};

export const SidebarContext = createContext<SidebarState | null>(null);

export function useSidebar(): SidebarState {
  const state = useContext(SidebarContext);
  if (!state) throw new Error("useSidebar must be used inside <SidebarProvider>");
  return state;
}

/** The stored choice; expanded when there is none. */
export function readSidebarCookie(cookie: string = document.cookie): boolean {
  const match = /(?:^|;\s*)sidebar_state=([^;]*)/.exec(cookie);
  return match?.[1] !== "false";
}

export function writeSidebarCookie(open: boolean): void {
  document.cookie = `${SIDEBAR_COOKIE_NAME}=${open}; path=/; max-age=${SIDEBAR_COOKIE_MAX_AGE_S}; SameSite=Lax`;
}
