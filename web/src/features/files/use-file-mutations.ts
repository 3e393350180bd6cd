/**
 * Save, rename and delete one file. Each success puts the server's answer into the cached list at once;
 * the WebSocket event for the same change (and the next poll) then agree with it.
 */
import type { ProjectFile } from "@shared/schemas/file";
import { type QueryClient, useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../api/endpoints";
import { fileKeys } from "../../api/query-keys";
import { applyFileEvent } from "./apply-file-event";

function putInList(queryClient: QueryClient, file: ProjectFile, type: "file.updated" | "file.deleted") {
  queryClient.setQueryData<ProjectFile[]>(fileKeys.list(file.projectId), (list) => applyFileEvent(list, { type, projectId: file.projectId, file }));
}

export function useSaveFile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ file, content }: { file: ProjectFile; content: string }) => api.files.save(file.id, content),
    onSuccess: (saved) => putInList(queryClient, saved, "file.updated"),
  });
}

export function useRenameFile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ file, newPath }: { file: ProjectFile; newPath: string }) => api.files.rename(file.id, newPath),
    onSuccess: (renamed) => putInList(queryClient, renamed, "file.updated"),
  });
}

export function useDeleteFile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (file: ProjectFile) => {
      await api.files.remove(file.id);
      return file;
    },
    onSuccess: (deleted) => putInList(queryClient, deleted, "file.deleted"),
  });
}
