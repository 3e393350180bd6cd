/**
 * Download the project's source from the Preview toolbar (spec §7): the download map fetched with the
 * user's token and cookies, saved as-is as `{name}-source.json`.
 */
import { useMutation } from "@tanstack/react-query";
import { api } from "../../api/endpoints";
import { toast } from "../../components/ui/use-toast";
import { sourceJsonName } from "./preview-url";

export function useDownloadSource(projectId: string) {
  return useMutation({
    mutationFn: async () => {
      const download = await api.files.download(projectId);
      const name = sourceJsonName(download.projectName);
      saveJson(download, name);
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

function saveJson(value: unknown, fileName: string): void {
  const url = URL.createObjectURL(new Blob([JSON.stringify(value, null, 2)], { type: "application/json" }));
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  link.style.display = "none";
  document.body.append(link);
  link.click();
  link.remove();
  // Revoking at once can cancel the download in some browsers.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
