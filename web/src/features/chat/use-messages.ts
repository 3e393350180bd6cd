/** A project's chat history: GET /api/messages/{projectId}. */
import type { Message } from "@shared/schemas/message";
import { useQuery } from "@tanstack/react-query";
import { apiFetch } from "../../api/client";
import { messageKeys } from "../../api/query-keys";

export function useMessages(projectId: string) {
  return useQuery({
    queryKey: messageKeys.list(projectId),
    queryFn: () => apiFetch<Message[]>(`/api/messages/${encodeURIComponent(projectId)}`),
    enabled: Boolean(projectId),
  });
}
