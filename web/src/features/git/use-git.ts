/**
 * A project's git remote for the Git panel: the status (refetched while the panel is open, so ahead and
 * behind follow edits and the remote), and connect, push, pull and disconnect, each refreshing it. A pull
 * changes files and versions, so those lists refresh too.
 */
import type { ConnectGit, PushGit } from "@shared/schemas/git";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "../../api/endpoints";
import { queries } from "../../api/queries";
import { fileKeys, projectKeys, versionKeys } from "../../api/query-keys";

export function useGit(projectId: string, open: boolean) {
  const client = useQueryClient();
  const refresh = () => client.invalidateQueries({ queryKey: projectKeys.git(projectId) });
  const status = useQuery({ ...queries.git(projectId), enabled: open, refetchInterval: open ? 15_000 : false });
  const connect = useMutation({ mutationFn: (body: ConnectGit) => api.git.connect(projectId, body), onSuccess: refresh });
  const push = useMutation({ mutationFn: (body: PushGit) => api.git.push(projectId, body), onSuccess: refresh });
  const pull = useMutation({
    mutationFn: () => api.git.pull(projectId),
    onSuccess: () => {
      void refresh();
      void client.invalidateQueries({ queryKey: fileKeys.list(projectId) });
      void client.invalidateQueries({ queryKey: versionKeys.all(projectId) });
    },
  });
  const disconnect = useMutation({ mutationFn: () => api.git.disconnect(projectId), onSuccess: refresh });
  return { status, connect, push, pull, disconnect };
}
