/** A project's secrets for the Settings panel: the list (names and times), and set / delete that refresh it. */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "../../api/endpoints";
import { queries } from "../../api/queries";
import { projectKeys } from "../../api/query-keys";

export function useSecrets(projectId: string) {
  const client = useQueryClient();
  const refresh = () => client.invalidateQueries({ queryKey: projectKeys.secrets(projectId) });
  const list = useQuery(queries.secrets(projectId));
  const set = useMutation({ mutationFn: (s: { name: string; value: string }) => api.secrets.set(projectId, s.name, s.value), onSuccess: refresh });
  const remove = useMutation({ mutationFn: (name: string) => api.secrets.remove(projectId, name), onSuccess: refresh });
  return { list, set, remove };
}
