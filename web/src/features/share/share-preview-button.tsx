/** "Share" in the Preview toolbar: opens the Share preview dialog (share-preview-panel.tsx). */
import { DialogButton } from "../../components/ui/dialog-button";
import { GlobeIcon } from "../../components/ui/icons";
import { SharePreviewPanel } from "./share-preview-panel";

export function SharePreviewButton({ projectId }: { projectId: string }) {
  return (
    <DialogButton label="Share" ariaLabel="Share preview" title="Share preview" icon={<GlobeIcon className="size-4" />} testId="share-preview-button">
      <SharePreviewPanel projectId={projectId} />
    </DialogButton>
  );
}
