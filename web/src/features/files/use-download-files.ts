/**
 * Download every file of the project as `{projectName}-source.zip`: fetched with the user's
 * token, zipped in the browser, toasts of the spec along the way.
 */
import { useMutation } from "@tanstack/react-query";
import { api } from "../../api/endpoints";
import { toast } from "../../components/ui/use-toast";
import { saveDownload } from "../../lib/save-download";
import { buildSourceZip, sourceZipName } from "./source-zip";

export function useDownloadFiles(projectId: string) {
  return useMutation({
    mutationFn: async () => {
      const download = await api.files.download(projectId);
      saveDownload(new Blob([(await buildSourceZip(download)) as BlobPart], { type: "application/zip" }), sourceZipName(download.projectName));
      return download;
    },
    onMutate: () => {
      toast({ title: "Preparing download", description: "Creating ZIP file..." });
    },
    onSuccess: (download) => {
      toast({ title: "Download complete", description: `Downloaded ${download.filesCount} files as ZIP` });
    },
    onError: () => {
      toast({ title: "Download failed", description: "Failed to download files", variant: "destructive" });
    },
  });
}
