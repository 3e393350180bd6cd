/**
 * Download the project's source from the Preview toolbar: the download map fetched with the
 * user's token and cookies, saved as-is as `{name}-source.json`.
 */
import { useMutation } from "@tanstack/react-query";
import { api } from "../../api/endpoints";
import { toast } from "../../components/ui/use-toast";
import { saveDownload } from "../../lib/save-download";
import { sourceJsonName } from "./preview-url";

export function useDownloadSource(projectId: string) {
  return useMutation({
    mutationFn: async () => {
      const download = await api.files.download(projectId);
      const name = sourceJsonName(download.projectName);
      saveDownload(new Blob([JSON.stringify(download, null, 2)], { type: "application/json" }), name);
      return name;
    },
    onSuccess: (name) => {
      toast({ title: "Download started", description: `Saving ${name}` });
    },
    onError: () => {
      toast({ title: "Download failed", description: "Failed to download source code", variant: "destructive" });
    },
  });
}
