/**
 * "Undo this run" on an agent's answer (and "Restore to before this message" on the user's message): brings
 * back the files as they were before that run. Shown only when the run changed files.
 */
import { useState } from "react";
import { Button } from "../../../components/ui/button";
import { useVersions } from "../use-versions";
import { versionBeforeRun } from "../version-display";
import { RestoreVersionDialog } from "./restore-version-dialog";

type Props = { projectId: string; /** The id of the assistant message the run wrote. */ messageId: string; label?: string };

export function UndoRunButton({ projectId, messageId, label = "Undo this run" }: Props) {
  const versions = useVersions(projectId);
  const [confirming, setConfirming] = useState(false);
  const target = versions.data ? versionBeforeRun(versions.data, messageId) : null;
  if (!target) return null;
  return (
    <>
      <Button size="sm" variant="ghost" onClick={() => setConfirming(true)}>
        {label}
      </Button>
      <RestoreVersionDialog projectId={projectId} version={confirming ? target : null} title={label} onClose={() => setConfirming(false)} />
    </>
  );
}
