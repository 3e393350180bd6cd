import type { CreateProject, Project } from "@shared/schemas/project";
import { type QueryClient, useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../api/endpoints";
import { projectKeys } from "../../api/query-keys";

/** Puts a project the server just made into the cached list (first) and its detail, so no refetch is needed. */
export function cacheNewProject(queryClient: QueryClient, project: Project) {
  queryClient.setQueryData<Project[]>(projectKeys.all, (list) => (list ? [project, ...list.filter((p) => p.id !== project.id)] : list));
  queryClient.setQueryData(projectKeys.detail(project.id), project);
}

/** Creates a project and caches it with cacheNewProject. */
export function useCreateProject() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateProject) => api.projects.create(input),
    onSuccess: (project) => cacheNewProject(queryClient, project),
  });
}
