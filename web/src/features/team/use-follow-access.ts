/**
 * Keeps a project's screens on my current role: when the owner changes it (or removes me), the socket says
 * so and the project is read again, so a new viewer's composer and terminal turn read-only at once and a
 * removed member sees the project gone.
 */
import { ACCESS_CHANGED } from "@shared/events/team-events";
import { useQueryClient } from "@tanstack/react-query";
import { projectKeys } from "../../api/query-keys";
import { useTeamEvents } from "./use-team-events";

export function useFollowAccess(projectId: string): void {
  const queryClient = useQueryClient();
  useTeamEvents(projectId, (event) => {
    if (event.type !== ACCESS_CHANGED) return;
    void queryClient.invalidateQueries({ queryKey: projectKeys.detail(projectId) });
  });
}
