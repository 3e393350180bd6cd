/** Confirms a restore: the files become exactly that version's, and the files as they are stay a version. */
import type { VersionSummary } from "@shared/schemas/versions";
import { useRef } from "react";
import { Button } from "../../../components/ui/button";
import { Dialog } from "../../../components/ui/dialog";
import { toast } from "../../../components/ui/use-toast";
import { formatRelativeTime } from "../../../lib/relative-time";
import { serverMessage } from "../../files/file-errors";
import { useRestoreVersion } from "../use-version-mutations";

type Props = { projectId: string; version: VersionSummary | null; title?: string; onClose: () => void };

export function RestoreVersionDialog({ projectId, version, title = "Restore version", onClose }: Props) {
  const restore = useRestoreVersion(projectId);
  // Keep showing the last version while the dialog animates out.
  const shown = useRef(version);
  if (version) shown.current = version;
  const label = shown.current ? `"${shown.current.label}" (${formatRelativeTime(shown.current.createdAt)})` : "";

  const close = () => {
    if (!restore.isPending) onClose();
  };
  const confirm = () => {
    if (!version) return;
    restore.mutate(version.id, {
      onSuccess: (result) => {
        toast({ title: "Version restored", description: `${result.written} files written, ${result.deleted} removed.` });
        onClose();
      },
      onError: (err) => toast({ title: "Restore failed", description: serverMessage(err, "Failed to restore the version"), variant: "destructive" }),
    });
  };

  return (
    <Dialog
      open={version !== null}
      onClose={close}
      title={title}
      description={`The project's files will become exactly those of ${label}: files added since are removed and removed ones come back. The files as they are now are kept as a version, so this can be undone.`}
    >
      <div className="flex justify-end gap-2">
        <Button variant="outline" onClick={close} disabled={restore.isPending}>
          Cancel
        </Button>
        <Button variant="destructive" onClick={confirm} disabled={restore.isPending}>
          {restore.isPending ? "Restoring..." : "Restore"}
        </Button>
      </div>
    </Dialog>
  );
}
