/**
 * The Agent Chat's header: the project's History, Publish, Git, Settings (its secrets), and on wide screens the button that shows or hides
 * the preview beside the chat.
 */
import { Button } from "../../../components/ui/button";
import { HistoryButton } from "../../history/components/history-button";
import { PublishButton } from "../../publish/publish-button";
import { SettingsButton } from "../../settings/settings-button";
import { GitButton } from "../../git/git-button";
import { PanelRightIcon } from "../../../components/ui/icons";

export function ChatHeader({
  projectId,
  preview,
}: {
  projectId: string;
  /** Only where the side panel can show (1280 px and wider). */
  preview?: { open: boolean; onToggle: () => void };
}) {
  return (
    <div className="sticky top-14 z-20 flex items-center justify-end gap-2 border-b bg-background/80 px-4 py-2 backdrop-blur md:px-6" data-testid="chat-header">
      <HistoryButton projectId={projectId} />
      <PublishButton projectId={projectId} />
      <GitButton projectId={projectId} />
      <SettingsButton projectId={projectId} />
      {preview && !preview.open && (
        <Button variant="outline" size="sm" onClick={preview.onToggle} data-testid="show-preview-panel">
          <PanelRightIcon className="size-4" />
          Show preview
        </Button>
      )}
    </div>
  );
}
