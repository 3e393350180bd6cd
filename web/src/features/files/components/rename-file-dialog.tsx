/**
 * Renames a file: Rename stays disabled while the path is empty, unchanged, or a rename
 * is under way; the dialog closes after a success. Illegal paths are pointed out as the user types, and the
 * server's word (a taken path, say) comes back as the 'Rename failed' toast.
 */
import { filePathProblem } from "@shared/file-path";
import type { ProjectFile } from "@shared/schemas/file";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { Button } from "../../../components/ui/button";
import { Dialog } from "../../../components/ui/dialog";
import { Input, Label } from "../../../components/ui/field";
import { toast } from "../../../components/ui/use-toast";
import { serverMessage } from "../file-errors";
import { useRenameFile } from "../use-file-mutations";

export function RenameFileDialog({ file, onClose }: { file: ProjectFile | null; onClose: () => void }) {
  const renameFile = useRenameFile();
  const [value, setValue] = useState(file?.path ?? "");
  const shown = useRef(file);
  if (file) shown.current = file;

  useEffect(() => {
    if (file) setValue(file.path);
  }, [file]);

  const newPath = value.trim();
  const currentPath = shown.current?.path ?? "";
  const disabled = newPath === "" || newPath === currentPath || renameFile.isPending;
  const problem = newPath && newPath !== currentPath ? filePathProblem(newPath) : null;

  const close = () => {
    if (!renameFile.isPending) onClose();
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!file || disabled) return;
    renameFile.mutate(
      { file, newPath },
      {
        onSuccess: (renamed) => {
          toast({ title: "File renamed", description: `${file.path} is now ${renamed.path}.` });
          onClose();
        },
        onError: (err) => {
          toast({ title: "Rename failed", description: serverMessage(err, "Failed to rename file"), variant: "destructive" });
        },
      },
    );
  };

  return (
    <Dialog open={file !== null} onClose={close} title="Rename File" description={`Enter a new path for ${currentPath}.`}>
      <form onSubmit={submit} noValidate className="space-y-4">
        <div>
          <Label htmlFor="rename-file-path">File path</Label>
          <Input
            id="rename-file-path"
            value={value}
            onChange={(e) => setValue(e.target.value)}
            placeholder="src/App.tsx"
            className="font-mono"
            autoComplete="off"
            spellCheck={false}
            aria-describedby={problem ? "rename-file-problem" : undefined}
            autoFocus
          />
          {problem && (
            <p id="rename-file-problem" className="mt-1.5 text-xs text-destructive">
              {problem}
            </p>
          )}
        </div>
        <div className="flex justify-end gap-2">
          <Button variant="outline" onClick={close} disabled={renameFile.isPending}>
            Cancel
          </Button>
          <Button type="submit" disabled={disabled}>
            Rename
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
