import type { Project } from "@shared/schemas/project";
import { useQuery } from "@tanstack/react-query";
import { apiFetch } from "../../api/client";
import { projectKeys } from "../../api/query-keys";

/** One project; the query runs only when the id is present and non-empty (spec §5). */
export function useProject(id: string | undefined) {
  return useQuery({
    queryKey: projectKeys.detail(id ?? ""),
    queryFn: () => apiFetch<Project>(`/api/projects/${encodeURIComponent(id ?? "")}`),
    enabled: Boolean(id),
  });
}
