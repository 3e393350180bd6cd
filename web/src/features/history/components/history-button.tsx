/** "History": opens the project's History panel (versions, diffs, restore). */
import { useState } from "react";
import { Button } from "../../../components/ui/button";
import { HistoryIcon } from "./history-icon";
import { HistoryPanel } from "./history-panel";

export function HistoryButton({ projectId, className }: { projectId: string; className?: string }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="outline" size="sm" className={className} onClick={() => setOpen(true)} data-testid="open-history">
        <HistoryIcon className="size-4" />
        History
      </Button>
      <HistoryPanel projectId={projectId} open={open} onClose={() => setOpen(false)} />
    </>
  );
}
