/**
 * My role in a project, from its detail (GET /api/projects/{id} says it): a viewer's screens are read-only,
 * only the owner manages members. While the project loads nothing is taken away (the server refuses anyway).
 */
import { useProject } from "../projects/use-project";

/** What a viewer reads where a write would be: the API's 403 says the same. */
export const VIEW_ONLY = "You can only view this project.";

export function useProjectRole(projectId: string) {
  const role = useProject(projectId).data?.role;
  return { role, canEdit: role !== "viewer", isOwner: role === "owner" };
}
