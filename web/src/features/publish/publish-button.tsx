/** The Publish button (Preview toolbar, chat header): opens the Publish dialog. */
import { useState } from "react";
import { Button } from "../../components/ui/button";
import { RocketIcon } from "../../components/ui/icons";
import { PublishDialog } from "./publish-dialog";

export function PublishButton({ projectId }: { projectId: string }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button size="sm" variant="outline" onClick={() => setOpen(true)} aria-label="Publish" data-testid="publish-button">
        <RocketIcon className="size-4" />
        <span className="hidden sm:inline">Publish</span>
      </Button>
      {open && <PublishDialog projectId={projectId} open={open} onClose={() => setOpen(false)} />}
    </>
  );
}
