/**
 * "Import from ZIP" for the New Project dialog: picks a .zip and creates the project from it (the project
 * name is optional; the zip's name is used otherwise). Reports the server's reason when a zip is refused.
 */
import type { Project } from "@shared/schemas/project";
import { useRef } from "react";
import { Button } from "../../../components/ui/button";
import { toast } from "../../../components/ui/use-toast";
import { serverMessage } from "../../files/file-errors";
import { useImportProject } from "../use-version-mutations";

type Props = { name?: string; onImported: (project: Project) => void };

export function ImportZipField({ name, onImported }: Props) {
  const input = useRef<HTMLInputElement>(null);
  const importProject = useImportProject();

  const picked = (file: File | undefined) => {
    if (!file) return;
    importProject.mutate(
      { file, name },
      {
        onSuccess: (project) => {
          toast({ title: "Project imported", description: `${project.name} was created from ${file.name}.` });
          onImported(project);
        },
        onError: (err) => toast({ title: "Import failed", description: serverMessage(err, "Failed to import the zip"), variant: "destructive" }),
      },
    );
    if (input.current) input.current.value = "";
  };

  return (
    <>
      <input ref={input} type="file" accept=".zip,application/zip" className="hidden" onChange={(e) => picked(e.target.files?.[0])} />
      <Button variant="outline" onClick={() => input.current?.click()} disabled={importProject.isPending}>
        {importProject.isPending ? "Importing..." : "Import from ZIP"}
      </Button>
    </>
  );
}
