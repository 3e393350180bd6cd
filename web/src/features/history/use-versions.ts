/** The project's versions, newest first; refreshed every 10 s while shown (agent runs and edits add them). */
import { useQuery } from "@tanstack/react-query";
import { listVersions } from "./history-api";
import { versionKeys } from "./version-keys";

export const VERSIONS_POLL_MS = 10_000;

export function useVersions(projectId: string, options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: versionKeys.list(projectId),
    queryFn: () => listVersions(projectId),
    enabled: Boolean(projectId) && (options.enabled ?? true),
    refetchInterval: VERSIONS_POLL_MS,
  });
}
