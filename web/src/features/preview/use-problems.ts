/**
 * The project's problem list (GET /api/sandbox/{id}/problems), refetched the moment the server says it
 * changed (`problems.changed` on the file-event WebSocket), so no polling; clear empties it.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { api } from "../../api/endpoints";
import { queries } from "../../api/queries";
import { fileEvents } from "../../api/file-events";
import { sandboxKeys } from "../../api/query-keys";

export function useProblems(projectId: string) {
  const queryClient = useQueryClient();
  const query = useQuery(queries.problems(projectId));

  useEffect(() => {
    const refetch = () => void queryClient.invalidateQueries({ queryKey: sandboxKeys.problems(projectId) });
    // Reconnecting may have missed a change: read the list again whenever the socket comes (back) up.
    return fileEvents.subscribe(projectId, { onEvent: () => {}, onProblemsChanged: refetch, onLive: (live) => live && refetch() });
  }, [queryClient, projectId]);

  const clear = useMutation({
    mutationFn: () => api.sandbox.clearProblems(projectId),
    onSuccess: () => queryClient.setQueryData(sandboxKeys.problems(projectId), []),
  });

  return { problems: query.data ?? [], isPending: query.isPending, error: query.error, clear };
}
