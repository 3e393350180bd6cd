/** One file's content for the editor: always fetched fresh when the editor opens, never kept afterwards. */
import type { FileContent } from "@shared/schemas/file";
import { useQuery } from "@tanstack/react-query";
import { apiFetch } from "../../api/client";
import { fileKeys } from "../../api/query-keys";

export function useFileContent(projectId: string, fileId: string) {
  return useQuery({
    queryKey: fileKeys.content(projectId, fileId),
    queryFn: () =>
      apiFetch<FileContent>(`/api/files/${encodeURIComponent(projectId)}/${encodeURIComponent(fileId)}`),
    staleTime: 0,
    gcTime: 0,
  });
}
