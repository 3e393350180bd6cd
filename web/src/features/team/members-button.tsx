/**
 * The chat header's people button: the project's people (./members-panel.tsx) in a dialog. Only the owner
 * invites, so only the owner's reads "Share"; an editor or viewer gets "People", the same list to read (and
 * their own Leave), since the roles let no one else bring people in.
 */
import { DialogButton } from "../../components/ui/dialog-button";
import { UsersIcon } from "../../components/ui/icons";
import { MembersPanel } from "./members-panel";
import { useProjectRole } from "./use-project-role";

export function MembersButton({ projectId }: { projectId: string }) {
  const { isOwner } = useProjectRole(projectId);
  return (
    <DialogButton
      label={isOwner ? "Share" : "People"}
      ariaLabel="People in this project"
      title="People in this project"
      icon={<UsersIcon className="size-4" />}
      testId="members-button"
    >
      <MembersPanel projectId={projectId} />
    </DialogButton>
  );
}
