/**
 * Recreate the project's sandbox (POST /api/sandbox/{id}/recreate): a fresh sandbox with every stored file
 * and the workflow started. The caller shows the new URL at once (a ~3 s override, since the refetched
 * queries would otherwise still show the old one); the project and URL queries are refreshed behind it.
 */
import type { RecreateResult } from "@shared/schemas/sandbox";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { describeError } from "../../api/api-error";
import { api } from "../../api/endpoints";
import { toast } from "../../components/ui/use-toast";
import { showRecreateToasts } from "./recreate-toasts";
import { projectKeys, sandboxKeys } from "../../api/query-keys";

export function useRecreateSandbox(projectId: string, handlers: { onRecreated: (result: RecreateResult) => void; onFailed: () => void }) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.sandbox.recreate(projectId),
    onSuccess: (result) => {
      queryClient.setQueryData(sandboxKeys.url(projectId), { url: result.url });
      // The project now names the new sandbox; its validity is checked under the new key at once.
      void queryClient.invalidateQueries({ queryKey: projectKeys.all });
      handlers.onRecreated(result);
      showRecreateToasts(result, toast);
    },
    onError: (err) => {
      handlers.onFailed();
      toast({ title: "Failed to recreate sandbox", description: describeError(err), variant: "destructive" });
    },
  });
}
