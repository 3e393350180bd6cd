/** The chat header's Share button: the project's people (./members-panel.tsx) in a dialog. */
import { DialogButton } from "../../components/ui/dialog-button";
import { UsersIcon } from "../../components/ui/icons";
import { MembersPanel } from "./members-panel";

export function MembersButton({ projectId }: { projectId: string }) {
  return (
    <DialogButton
      label="Share"
      ariaLabel="People in this project"
      title="People in this project"
      icon={<UsersIcon className="size-4" />}
      testId="members-button"
    >
      <MembersPanel projectId={projectId} />
    </DialogButton>
  );
}
