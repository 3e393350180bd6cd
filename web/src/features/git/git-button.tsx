/** "Git" (Files screen and chat header): opens the project's Git panel in a dialog. */
import { useState } from "react";
import { Button } from "../../components/ui/button";
import { Dialog } from "../../components/ui/dialog";
import { GitBranchIcon } from "../../components/ui/icons";
import { GitPanel } from "./git-panel";

export function GitButton({ projectId, className }: { projectId: string; className?: string }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button size="sm" variant="outline" className={className} onClick={() => setOpen(true)} aria-label="Git" data-testid="git-button">
        <GitBranchIcon className="size-4" />
        <span className="hidden sm:inline">Git</span>
      </Button>
      <Dialog open={open} onClose={() => setOpen(false)} title="Git">
        {open && <GitPanel projectId={projectId} />}
        <div className="mt-6 flex justify-end">
          <Button variant="outline" size="sm" onClick={() => setOpen(false)}>
            Close
          </Button>
        </div>
      </Dialog>
    </>
  );
}
