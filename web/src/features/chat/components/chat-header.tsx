/**
 * The Agent Chat's header: who else is here, the project's History, Publish, Git, Settings (its secrets), its
 * people (Share) and Activity, and on wide screens the button that shows or hides the preview beside the chat.
 * A viewer gets no Publish, Git or Settings.
 */
import { Button } from "../../../components/ui/button";
import { HistoryButton } from "../../history/components/history-button";
import { PublishButton } from "../../publish/publish-button";
import { SettingsButton } from "../../settings/settings-button";
import { GitButton } from "../../git/git-button";
import { PanelRightIcon } from "../../../components/ui/icons";
import { ActivityButton } from "../../team/activity-button";
import { MembersButton } from "../../team/members-button";
import { PresenceAvatars } from "../../team/presence-avatars";
import { useProjectRole } from "../../team/use-project-role";

export function ChatHeader({
  projectId,
  preview,
}: {
  projectId: string;
  /** Only where the side panel can show (1280 px and wider). */
  preview?: { open: boolean; onToggle: () => void };
}) {
  const { canEdit } = useProjectRole(projectId);
  return (
    <div className="sticky top-14 z-20 flex items-center justify-end gap-2 border-b bg-background/80 px-4 py-2 backdrop-blur md:px-6" data-testid="chat-header">
      <PresenceAvatars projectId={projectId} />
      <HistoryButton projectId={projectId} />
      {canEdit && <PublishButton projectId={projectId} />}
      {canEdit && <GitButton projectId={projectId} />}
      {canEdit && <SettingsButton projectId={projectId} />}
      <MembersButton projectId={projectId} />
      <ActivityButton projectId={projectId} />
      {preview && !preview.open && (
        <Button variant="outline" size="sm" onClick={preview.onToggle} data-testid="show-preview-panel">
          <PanelRightIcon className="size-4" />
          Show preview
        </Button>
      )}
    </div>
  );
}
