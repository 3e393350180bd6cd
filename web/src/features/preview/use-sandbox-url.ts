/** The project's preview URL (GET /api/sandbox/{id}/url), asked only while the project has a sandbox (spec §7). */
import type { SandboxUrl } from "@shared/schemas/sandbox";
import { useQuery } from "@tanstack/react-query";
import { apiFetch } from "../../api/client";
import { sandboxKeys } from "./sandbox-keys";

export function useSandboxUrl(projectId: string, sandboxId: string | null | undefined) {
  return useQuery({
    // Keyed by project only: recreate writes the new URL straight into this entry.
    queryKey: sandboxKeys.url(projectId),
    queryFn: () => apiFetch<SandboxUrl>(`/api/sandbox/${encodeURIComponent(projectId)}/url`),
    enabled: Boolean(projectId && sandboxId),
  });
}
