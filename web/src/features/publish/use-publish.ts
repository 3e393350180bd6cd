/**
 * The Publish dialog's data: the site's state, its deployments, the caller's live sites (project cards),
 * and the mutations (publish, roll back, unpublish). A build's live log comes over the file-event socket
 * (`deployment.log` / `deployment.status`); its end refetches the site and the history.
 *
 * @example
 * const build = useBuildLog(projectId);
 * const publish = usePublish(projectId, build.start);
 */
import type { DeploymentStatus } from "@shared/schemas/publish";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useState } from "react";
import { api } from "../../api/endpoints";
import { queries } from "../../api/queries";
import { projectEvents } from "../../api/project-events";
import { publishKeys } from "../../api/query-keys";

export const useSiteState = (projectId: string, enabled = true) => useQuery({ ...queries.site(projectId), enabled });
export const useDeployments = (projectId: string, enabled = true) => useQuery({ ...queries.deployments(projectId), enabled });
/** The live deployment's log (a server's own output), fetched again every few seconds while shown. */
export const useDeploymentLogs = (projectId: string, deploymentId: string | null) =>
  useQuery({
    queryKey: publishKeys.logs(projectId, deploymentId ?? ""),
    queryFn: ({ signal }) => api.publish.logs(projectId, deploymentId!, { signal }),
    enabled: Boolean(deploymentId),
    refetchInterval: 3_000,
  });
export const useLiveSites = () => useQuery({ ...queries.liveSites(), staleTime: 30_000 });

function useRefreshPublish(projectId: string) {
  const queryClient = useQueryClient();
  return useCallback(() => {
    void queryClient.invalidateQueries({ queryKey: publishKeys.site(projectId) });
    void queryClient.invalidateQueries({ queryKey: publishKeys.deployments(projectId) });
    void queryClient.invalidateQueries({ queryKey: publishKeys.liveSites });
  }, [queryClient, projectId]);
}

export type BuildProgress = { deploymentId: string | null; log: string; status: DeploymentStatus | null; error: string | null };

/** The running build's log and status, as the socket brings them. */
export function useBuildLog(projectId: string) {
  const refresh = useRefreshPublish(projectId);
  const [progress, setProgress] = useState<BuildProgress>({ deploymentId: null, log: "", status: null, error: null });
  useEffect(
    () =>
      projectEvents.subscribe(projectId, {
        onEvent: () => {},
        onDeployment: (event) => {
          setProgress((p) => {
            if (p.deploymentId && p.deploymentId !== event.deploymentId) return p;
            if (event.type === "deployment.log") return { ...p, deploymentId: event.deploymentId, log: p.log + event.text };
            return { ...p, deploymentId: event.deploymentId, status: event.status, error: event.error ?? null };
          });
          if (event.type === "deployment.status" && event.status !== "building") refresh();
        },
      }),
    [projectId, refresh],
  );
  const start = useCallback((deploymentId: string) => setProgress({ deploymentId, log: "", status: "building", error: null }), []);
  return { progress, start };
}

export function usePublish(projectId: string, onStarted: (deploymentId: string) => void) {
  const refresh = useRefreshPublish(projectId);
  return useMutation({
    mutationFn: (input: { slug?: string; allowFindings?: boolean }) => api.publish.start(projectId, input.slug, input.allowFindings),
    onSuccess: (result) => {
      onStarted(result.deploymentId);
      refresh();
    },
  });
}

export function useActivateDeployment(projectId: string) {
  const refresh = useRefreshPublish(projectId);
  return useMutation({ mutationFn: (deploymentId: string) => api.publish.activate(projectId, deploymentId), onSuccess: refresh });
}

export function useUnpublish(projectId: string) {
  const refresh = useRefreshPublish(projectId);
  return useMutation({ mutationFn: () => api.publish.unpublish(projectId), onSuccess: refresh });
}
