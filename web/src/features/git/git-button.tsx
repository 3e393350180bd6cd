/** "Git" (Files screen and chat header): opens the project's Git panel in a dialog. */
import { DialogButton } from "../../components/ui/dialog-button";
import { GitBranchIcon } from "../../components/ui/icons";
import { GitPanel } from "./git-panel";

export function GitButton({ projectId, className }: { projectId: string; className?: string }) {
  return (
    <DialogButton label="Git" title="Git" icon={<GitBranchIcon className="size-4" />} testId="git-button" className={className}>
      <GitPanel projectId={projectId} />
    </DialogButton>
  );
}
