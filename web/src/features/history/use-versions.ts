/** A project's versions, newest first (GET /api/projects/{id}/versions). */
import { useQuery } from "@tanstack/react-query";
import { queries } from "../../api/queries";

export function useVersions(projectId: string, enabled = true) {
  return useQuery({ ...queries.versions(projectId), enabled: enabled && Boolean(projectId) });
}
