/**
 * "Save version": the project's files as they are now, kept under the name the user gave
 * (POST /api/projects/{id}/versions). The version list is fetched again so the new one shows at its top.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../api/endpoints";
import { versionKeys } from "../../api/query-keys";

export function useSaveVersion(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (label: string) => api.versions.create(projectId, label),
    // Awaited, so the caller's onSuccess can select the new version once it is in the list.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: versionKeys.list(projectId), exact: true }).catch(() => {}),
  });
}
