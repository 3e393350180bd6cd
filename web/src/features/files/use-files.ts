/** The project's file list, polled every 5 s in a hidden tab too; the WebSocket makes changes show sooner. */
import { useQuery } from "@tanstack/react-query";
import { queries } from "../../api/queries";

export const FILE_LIST_POLL_MS = 5_000;

export function useFiles(projectId: string) {
  return useQuery({
    ...queries.files(projectId),
    enabled: Boolean(projectId),
    refetchInterval: FILE_LIST_POLL_MS,
    refetchIntervalInBackground: true,
  });
}
