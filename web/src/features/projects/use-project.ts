import { useQuery } from "@tanstack/react-query";
import { api } from "../../api/endpoints";
import { projectKeys } from "../../api/query-keys";

/** One project; the query runs only when the id is present and non-empty (spec §5). */
export function useProject(id: string | undefined) {
  return useQuery({
    queryKey: projectKeys.detail(id ?? ""),
    queryFn: () => api.projects.get(id ?? ""),
    enabled: Boolean(id),
  });
}
