/** The chat header's Activity button: who did what in the project (./activity-panel.tsx), in a dialog. */
import { DialogButton } from "../../components/ui/dialog-button";
import { ActivityIcon } from "../../components/ui/icons";
import { ActivityPanel } from "./activity-panel";

export function ActivityButton({ projectId }: { projectId: string }) {
  return (
    <DialogButton label="Activity" ariaLabel="Project activity" title="Activity" icon={<ActivityIcon className="size-4" />} testId="activity-button">
      <ActivityPanel projectId={projectId} />
    </DialogButton>
  );
}
