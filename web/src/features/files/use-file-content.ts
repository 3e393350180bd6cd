/** One file's content for the editor: always fetched fresh when the editor opens, never kept afterwards. */
import { useQuery } from "@tanstack/react-query";
import { api } from "../../api/endpoints";
import { fileKeys } from "../../api/query-keys";

export function useFileContent(projectId: string, fileId: string) {
  return useQuery({
    queryKey: fileKeys.content(projectId, fileId),
    queryFn: () => api.files.content(projectId, fileId),
    staleTime: 0,
    gcTime: 0,
  });
}
