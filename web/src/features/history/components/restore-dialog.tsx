/**
 * Confirms a restore: the project's files become exactly the version's (files added since are removed).
 * The files as they are now are kept as a version first, so a restore can itself be undone.
 */
import type { VersionSummary } from "@shared/schemas/versions";
import { useRef } from "react";
import { Button } from "../../../components/ui/button";
import { Dialog } from "../../../components/ui/dialog";
import { Spinner } from "../../../components/ui/spinner";
import { useRestoreVersion } from "../use-restore-version";
import { formatVersionTime } from "../version-format";

export type RestoreTarget = Pick<VersionSummary, "id" | "label" | "createdAt">;

export function RestoreDialog({
  projectId,
  target,
  title = "Restore this version?",
  onClose,
  onRestored,
}: {
  projectId: string;
  target: RestoreTarget | null;
  title?: string;
  onClose: () => void;
  onRestored?: () => void;
}) {
  const restore = useRestoreVersion(projectId);
  // Keep showing the last version while the dialog animates out.
  const shown = useRef(target);
  if (target) shown.current = target;
  const label = shown.current?.label ?? "";
  const at = shown.current ? formatVersionTime(shown.current.createdAt) : "";

  const close = () => {
    if (!restore.isPending) onClose();
  };
  const confirm = () => {
    if (!target) return;
    restore.mutate(target, {
      onSuccess: () => {
        onClose();
        onRestored?.();
      },
      onError: () => onClose(),
    });
  };

  return (
    <Dialog
      open={target !== null}
      onClose={close}
      title={title}
      description={`The project's files will become exactly as they were in "${label}" (${at}): files added since are removed, changed ones go back. The files as they are now are saved as a version first, so you can come back to them.`}
    >
      <div className="flex justify-end gap-2" data-testid="restore-dialog">
        <Button variant="outline" onClick={close} disabled={restore.isPending}>
          Cancel
        </Button>
        <Button onClick={confirm} disabled={restore.isPending} data-testid="confirm-restore">
          {restore.isPending && <Spinner className="size-4" />}
          Restore
        </Button>
      </div>
    </Dialog>
  );
}
