/**
 * Restores a version: the project's files become that version's. Afterwards the file list and contents,
 * the history and every preview of the project in this tab are refreshed. Success and refusal (409 while
 * the agent works) are toasts.
 */
import type { VersionSummary } from "@shared/schemas/versions";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../api/endpoints";
import { fileKeys, versionKeys } from "../../api/query-keys";
import { toast } from "../../components/ui/use-toast";
import { requestPreviewReload } from "../preview/preview-reload";
import { restoredToast, restoreFailedToast } from "./restore-feedback";

export function useRestoreVersion(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (version: Pick<VersionSummary, "id" | "label">) => api.versions.restore(projectId, version.id),
    onSuccess: async (result, version) => {
      toast(restoredToast(result, version.label));
      requestPreviewReload(projectId);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: fileKeys.list(projectId) }),
        queryClient.invalidateQueries({ queryKey: versionKeys.all(projectId) }),
      ]).catch(() => {});
    },
    onError: (err) => toast(restoreFailedToast(err)),
  });
}
