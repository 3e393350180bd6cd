/**
 * The project's model (GET /api/projects/{id}/model) and changing it (PUT): the choice is stored for the
 * project, so the next run uses it; the context meter is refetched for the new model's window.
 *
 * @example
 * const choice = useModelChoice(projectId);
 * choice.choose("qwen2.5-coder:7b");
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { describeError } from "../../api/api-error";
import { api } from "../../api/endpoints";
import { queries } from "../../api/queries";
import { projectKeys } from "../../api/query-keys";
import { toast } from "../../components/ui/use-toast";

export function useModelChoice(projectId: string) {
  const queryClient = useQueryClient();
  const query = useQuery({ ...queries.projectModel(projectId), enabled: Boolean(projectId) });
  const mutation = useMutation({
    mutationFn: (model: string) => api.projects.setModel(projectId, model),
    onSuccess: (data) => {
      queryClient.setQueryData(projectKeys.model(projectId), data);
      void queryClient.invalidateQueries({ queryKey: projectKeys.context(projectId) });
    },
    onError: (err) => toast({ title: "Could not change the model", description: describeError(err), variant: "destructive" }),
  });
  return {
    model: mutation.isPending ? (mutation.variables ?? query.data?.model) : query.data?.model,
    models: query.data?.models ?? [],
    choose: (model: string) => mutation.mutate(model),
    changing: mutation.isPending,
  };
}
