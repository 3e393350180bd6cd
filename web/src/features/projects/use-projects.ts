import { useQuery } from "@tanstack/react-query";
import { queries } from "../../api/queries";

/**
 * How often /projects asks for the list while it is open. Runs end, sandboxes start and files change from
 * other tabs, devices and the agent's background runs, and none of those reach this page as an event (the
 * WebSocket follows one project at a time), so the open list polls at the file list's cadence. It stops while
 * the tab is hidden and catches up when the tab is focused again.
 */
export const PROJECT_LIST_POLL_MS = 5_000;

/** The signed-in user's projects; null when the API does not accept the session (401). */
export function useProjects() {
  return useQuery({ ...queries.projects(), refetchInterval: PROJECT_LIST_POLL_MS, refetchOnWindowFocus: true });
}
