/** The project's Settings (chat header): a dialog holding its Knowledge (AGENTS.md) and Secrets panels. */
import { useState } from "react";
import { Button } from "../../components/ui/button";
import { Dialog } from "../../components/ui/dialog";
import { KeyIcon } from "../../components/ui/icons";
import { KnowledgePanel } from "./knowledge-panel";
import { SecretsPanel } from "./secrets-panel";

export function SettingsButton({ projectId }: { projectId: string }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button size="sm" variant="outline" onClick={() => setOpen(true)} aria-label="Project settings" data-testid="settings-button">
        <KeyIcon className="size-4" />
        <span className="hidden sm:inline">Settings</span>
      </Button>
      <Dialog open={open} onClose={() => setOpen(false)} title="Project settings">
        {open && <KnowledgePanel projectId={projectId} />}
        {open && <SecretsPanel projectId={projectId} />}
        <div className="mt-6 flex justify-end">
          <Button variant="outline" size="sm" onClick={() => setOpen(false)}>
            Close
          </Button>
        </div>
      </Dialog>
    </>
  );
}
