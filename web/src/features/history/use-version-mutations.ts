/**
 * "Save version" and "Restore". A restore changes the project's files, so both the history and every file
 * query of the project are refreshed (the WebSocket's file events also arrive for each file).
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { fileKeys, projectKeys } from "../../api/query-keys";
import { importProjectZip, restoreVersion, saveVersion } from "./history-api";
import { versionKeys } from "./version-keys";

export function useSaveVersion(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (label: string) => saveVersion(projectId, label),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: versionKeys.project(projectId) }),
  });
}

export function useRestoreVersion(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (versionId: string) => restoreVersion(projectId, versionId),
    onSuccess: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: versionKeys.project(projectId) }),
        queryClient.invalidateQueries({ queryKey: fileKeys.project(projectId) }),
      ]);
    },
  });
}

/** "Import from ZIP": the new project joins the cached list. */
export function useImportProject() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ file, name }: { file: File; name?: string }) => importProjectZip(file, name),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: projectKeys.all }),
  });
}
