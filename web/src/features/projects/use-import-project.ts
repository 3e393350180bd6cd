import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../api/endpoints";
import { cacheNewProject } from "./use-create-project";

/**
 * "Import from ZIP": a new project from a .zip. The server answers with the whole project, so it joins the
 * cached list and detail as a created one does; the list needs no refetch (it polls while open anyway).
 */
export function useImportProject() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ file, name }: { file: File; name?: string }) => api.projects.import(file, name),
    onSuccess: (project) => cacheNewProject(queryClient, project),
  });
}
