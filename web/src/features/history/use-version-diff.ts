/** What changed from a version to another (or to "current"), and one file's two sides for the diff editor. */
import { useQuery } from "@tanstack/react-query";
import { diffVersions, versionFileText } from "./history-api";
import { versionKeys } from "./version-keys";

export function useVersionDiff(projectId: string, from: string, to: string) {
  return useQuery({
    queryKey: versionKeys.diff(projectId, from, to),
    queryFn: () => diffVersions(projectId, from, to),
    enabled: Boolean(projectId && from && to),
  });
}

/** The file's text at `from` (at `fromPath`) and at `to` (at `toPath`); "" for a side where it does not exist. */
export function useFileSides(projectId: string, from: string, to: string, paths: { fromPath: string; toPath: string } | null) {
  return useQuery({
    queryKey: [...versionKeys.file(projectId, from, paths?.fromPath ?? ""), to, paths?.toPath ?? ""],
    queryFn: async () => {
      const [original, modified] = await Promise.all([
        versionFileText(projectId, from, paths!.fromPath),
        versionFileText(projectId, to, paths!.toPath),
      ]);
      return { original, modified };
    },
    enabled: Boolean(projectId && from && paths),
  });
}
