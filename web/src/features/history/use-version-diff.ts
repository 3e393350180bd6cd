/** What changed from a version to the current files (GET …/versions/{id}/diff/current). */
import { useQuery } from "@tanstack/react-query";
import { queries } from "../../api/queries";

export const CURRENT = "current";

export function useVersionDiff(projectId: string, versionId: string | null) {
  return useQuery({ ...queries.versionDiff(projectId, versionId ?? "", CURRENT), enabled: Boolean(versionId) });
}
