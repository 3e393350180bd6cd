/**
 * Download every file of the project as `{projectName}-source.zip`: fetched with the user's token and
 * zipped in the browser, or, for a large project (zip-source.ts), streamed as a ZIP by the server. Toasts say
 * when it starts, when it is saved, and why it failed.
 */
import type { ProjectFile } from "@shared/schemas/file";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../api/endpoints";
import { queries } from "../../api/queries";
import { toast } from "../../components/ui/use-toast";
import { saveDownload } from "../../lib/save-download";
import { buildSourceZip, sourceZipName } from "./source-zip";
import { zipSourceFor } from "./zip-source";

export function useDownloadFiles(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    /** `files`: the list the page shows, which decides where the ZIP is built. Answers how many files went. */
    mutationFn: async (files: readonly Pick<ProjectFile, "size">[]): Promise<number> => {
      if (zipSourceFor(files) === "server") {
        const [zip, project] = await Promise.all([api.files.downloadZip(projectId), queryClient.ensureQueryData(queries.project(projectId))]);
        saveDownload(zip, sourceZipName(project.name));
        return files.length;
      }
      const download = await api.files.download(projectId);
      saveDownload(new Blob([(await buildSourceZip(download)) as BlobPart], { type: "application/zip" }), sourceZipName(download.projectName));
      return download.filesCount;
    },
    onMutate: () => {
      toast({ title: "Preparing download", description: "Creating ZIP file..." });
    },
    onSuccess: (count) => {
      toast({ title: "Download complete", description: `Downloaded ${count} files as ZIP` });
    },
    onError: () => {
      toast({ title: "Download failed", description: "Failed to download files", variant: "destructive" });
    },
  });
}
