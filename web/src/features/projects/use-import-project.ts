import type { Project } from "@shared/schemas/project";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../api/endpoints";
import { projectKeys } from "../../api/query-keys";

/**
 * "Import from ZIP": a new project from a .zip. The project joins the cached list at once and the list is
 * fetched again (exact key: the project's own queries under the same prefix are left alone).
 */
export function useImportProject() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ file, name }: { file: File; name?: string }) => api.projects.import(file, name),
    onSuccess: (project) => {
      queryClient.setQueryData<Project[]>(projectKeys.all, (list) => (list ? [project, ...list.filter((p) => p.id !== project.id)] : list));
      queryClient.setQueryData(projectKeys.detail(project.id), project);
      // Not awaited: opening the new project need not wait for the list.
      void queryClient.invalidateQueries({ queryKey: projectKeys.all, exact: true }).catch(() => {});
    },
  });
}
