/** Confirms a delete and reports the outcome in a toast: "File deleted", or "Delete failed" with the server's message. */
import type { ProjectFile } from "@shared/schemas/file";
import { useRef } from "react";
import { Button } from "../../../components/ui/button";
import { Dialog } from "../../../components/ui/dialog";
import { toast } from "../../../components/ui/use-toast";
import { serverMessage } from "../file-errors";
import { useDeleteFile } from "../use-file-mutations";

export function DeleteFileDialog({ file, onClose }: { file: ProjectFile | null; onClose: () => void }) {
  const deleteFile = useDeleteFile();
  // Keep showing the last file while the dialog animates out.
  const shown = useRef(file);
  if (file) shown.current = file;
  const path = shown.current?.path ?? "";

  const close = () => {
    if (!deleteFile.isPending) onClose();
  };

  const confirm = () => {
    if (!file) return;
    deleteFile.mutate(file, {
      onSuccess: () => {
        toast({ title: "File deleted", description: `${file.path} was removed from S3 storage and the E2B sandbox.` });
        onClose();
      },
      onError: (err) => {
        toast({ title: "Delete failed", description: serverMessage(err, "Failed to delete file"), variant: "destructive" });
      },
    });
  };

  return (
    <Dialog
      open={file !== null}
      onClose={close}
      title="Delete File"
      description={`Are you sure you want to delete ${path}? This will remove it from S3 storage and E2B sandbox. This action cannot be undone.`}
    >
      <div className="flex justify-end gap-2">
        <Button variant="outline" onClick={close} disabled={deleteFile.isPending}>
          Cancel
        </Button>
        <Button variant="destructive" onClick={confirm} disabled={deleteFile.isPending}>
          Delete
        </Button>
      </div>
    </Dialog>
  );
}
