/** The project's preview URL (GET /api/sandbox/{id}/url), asked only while the project has a sandbox. */
import { useQuery } from "@tanstack/react-query";
import { queries } from "../../api/queries";

export function useSandboxUrl(projectId: string, sandboxId: string | null | undefined) {
  // Keyed by project only: recreate writes the new URL straight into this entry.
  return useQuery({ ...queries.sandboxUrl(projectId), enabled: Boolean(projectId && sandboxId) });
}
