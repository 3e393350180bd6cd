/** The project's file list, polled every 5 s (spec §7, §9); the WebSocket makes changes show sooner. */
import { useQuery } from "@tanstack/react-query";
import { api } from "../../api/endpoints";
import { fileKeys } from "../../api/query-keys";

export const FILE_LIST_POLL_MS = 5_000;

export function useFiles(projectId: string) {
  return useQuery({
    queryKey: fileKeys.list(projectId),
    queryFn: () => api.files.list(projectId),
    enabled: Boolean(projectId),
    refetchInterval: FILE_LIST_POLL_MS,
  });
}
