/**
 * The project socket's news about the others (shared/src/events/team-events.ts) for one project: `onEvent`
 * hears presence, run starts, activity and role changes. The socket is shared (api/project-events.ts).
 */
import type { TeamEvent } from "@shared/events/team-events";
import { useEffect, useRef } from "react";
import { projectEvents } from "../../api/project-events";

export function useTeamEvents(projectId: string, onEvent: (event: TeamEvent) => void): void {
  const handler = useRef(onEvent);
  handler.current = onEvent;
  useEffect(() => {
    if (!projectId) return;
    return projectEvents.subscribe(projectId, { onEvent: () => {}, onTeamEvent: (event) => handler.current(event) });
  }, [projectId]);
}
