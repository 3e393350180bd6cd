/** A project's chat history: GET /api/messages/{projectId}. */
import { useQuery } from "@tanstack/react-query";
import { api } from "../../api/endpoints";
import { messageKeys } from "../../api/query-keys";

export function useMessages(projectId: string) {
  return useQuery({
    queryKey: messageKeys.list(projectId),
    queryFn: () => api.messages.list(projectId),
    enabled: Boolean(projectId),
  });
}
