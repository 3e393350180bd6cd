/** The project's preview URL (GET /api/sandbox/{id}/url), asked only while the project has a sandbox (spec §7). */
import { useQuery } from "@tanstack/react-query";
import { api } from "../../api/endpoints";
import { sandboxKeys } from "../../api/query-keys";

export function useSandboxUrl(projectId: string, sandboxId: string | null | undefined) {
  return useQuery({
    // Keyed by project only: recreate writes the new URL straight into this entry.
    queryKey: sandboxKeys.url(projectId),
    queryFn: () => api.sandbox.url(projectId),
    enabled: Boolean(projectId && sandboxId),
  });
}
