/**
 * One file's text at a version, or as it is now ("current"), for a side of the diff. A null path is a
 * side where the file does not exist: empty text, nothing fetched.
 */
import { useQuery } from "@tanstack/react-query";
import { queries } from "../../api/queries";

export function useVersionFile(projectId: string, versionId: string, path: string | null) {
  return useQuery({
    ...queries.versionFile(projectId, versionId, path),
    // A version's files never change; the current side is read again each time it is shown.
    staleTime: versionId === "current" ? 0 : Number.POSITIVE_INFINITY,
  });
}
