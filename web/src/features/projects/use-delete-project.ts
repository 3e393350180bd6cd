import type { Project } from "@shared/schemas/project";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../api/endpoints";
import { projectKeys } from "../../api/query-keys";

/** Deletes a project (DELETE /api/projects/{id}) and drops it from the cached list and detail. */
export function useDeleteProject() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.projects.remove(id),
    onSuccess: (_, id) => {
      queryClient.setQueryData<Project[]>(projectKeys.all, (list) => list?.filter((p) => p.id !== id));
      queryClient.removeQueries({ queryKey: projectKeys.detail(id), exact: true });
    },
  });
}
