/** One file's content for the editor: always fetched fresh when the editor opens, never kept afterwards. */
import { useQuery } from "@tanstack/react-query";
import { queries } from "../../api/queries";

export function useFileContent(projectId: string, fileId: string) {
  return useQuery({ ...queries.fileContent(projectId, fileId), staleTime: 0, gcTime: 0 });
}
