import type { Project } from "@shared/schemas/project";
import { useQuery } from "@tanstack/react-query";
import { apiFetch } from "../../api/client";
import { projectKeys } from "../../api/query-keys";

/** The signed-in user's projects. */
export function useProjects() {
  return useQuery({
    queryKey: projectKeys.all,
    queryFn: () => apiFetch<Project[]>("/api/projects"),
  });
}
