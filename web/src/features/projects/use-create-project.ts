import type { CreateProject, Project } from "@shared/schemas/project";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../api/endpoints";
import { projectKeys } from "../../api/query-keys";

/** Creates a project and puts it into the cached list and detail, so no refetch is needed. */
export function useCreateProject() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateProject) => api.projects.create(input),
    onSuccess: (project) => {
      queryClient.setQueryData<Project[]>(projectKeys.all, (list) =>
        list ? [project, ...list.filter((p) => p.id !== project.id)] : list,
      );
      queryClient.setQueryData(projectKeys.detail(project.id), project);
    },
  });
}
