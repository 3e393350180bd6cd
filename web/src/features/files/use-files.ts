/** The project's file list, polled every 5 s (spec §7, §9); the WebSocket makes changes show sooner. */
import type { ProjectFile } from "@shared/schemas/file";
import { useQuery } from "@tanstack/react-query";
import { apiFetch } from "../../api/client";
import { fileKeys } from "../../api/query-keys";

export const FILE_LIST_POLL_MS = 5_000;

export function useFiles(projectId: string) {
  return useQuery({
    queryKey: fileKeys.list(projectId),
    queryFn: () => apiFetch<ProjectFile[]>(`/api/files/${encodeURIComponent(projectId)}`),
    enabled: Boolean(projectId),
    refetchInterval: FILE_LIST_POLL_MS,
  });
}
