/**
 * The interactive terminal's tabs, kept pure so they can be tested without a DOM: each tab is one shell
 * session; a new tab becomes the active one, and closing the active tab activates its neighbour.
 *
 * @example
 * let tabs = firstTabs();
 * tabs = addTab(tabs);          // two tabs, the second active
 * tabs = closeTab(tabs, tabs.active);
 */
import { MAX_TERMINALS_PER_PROJECT } from "@shared/events/pty-frames";

export type TerminalTab = { id: number; title: string };
export type TerminalTabs = { tabs: TerminalTab[]; active: number; nextId: number };

/** As many tabs as the server lets one project have open. */
export const MAX_TABS = MAX_TERMINALS_PER_PROJECT;

export function firstTabs(): TerminalTabs {
  return { tabs: [{ id: 1, title: "bash 1" }], active: 1, nextId: 2 };
}

export function canAddTab(state: TerminalTabs): boolean {
  return state.tabs.length < MAX_TABS;
}

export function addTab(state: TerminalTabs): TerminalTabs {
  if (!canAddTab(state)) return state;
  const id = state.nextId;
  return { tabs: [...state.tabs, { id, title: `bash ${id}` }], active: id, nextId: id + 1 };
}

/** Closing the last tab leaves a fresh one, so the view is never empty. */
export function closeTab(state: TerminalTabs, id: number): TerminalTabs {
  const at = state.tabs.findIndex((t) => t.id === id);
  if (at < 0) return state;
  const tabs = state.tabs.filter((t) => t.id !== id);
  if (!tabs.length) return { tabs: [{ id: state.nextId, title: `bash ${state.nextId}` }], active: state.nextId, nextId: state.nextId + 1 };
  const active = state.active === id ? tabs[Math.min(at, tabs.length - 1)]!.id : state.active;
  return { tabs, active, nextId: state.nextId };
}

export function selectTab(state: TerminalTabs, id: number): TerminalTabs {
  return state.tabs.some((t) => t.id === id) ? { ...state, active: id } : state;
}
