/** The project's Settings (chat header): a dialog holding its Knowledge (AGENTS.md) and Secrets panels. */
import { DialogButton } from "../../components/ui/dialog-button";
import { KeyIcon } from "../../components/ui/icons";
import { KnowledgePanel } from "./knowledge-panel";
import { SecretsPanel } from "./secrets-panel";

export function SettingsButton({ projectId }: { projectId: string }) {
  return (
    <DialogButton label="Settings" ariaLabel="Project settings" title="Project settings" icon={<KeyIcon className="size-4" />} testId="settings-button">
      <KnowledgePanel projectId={projectId} />
      <SecretsPanel projectId={projectId} />
    </DialogButton>
  );
}
