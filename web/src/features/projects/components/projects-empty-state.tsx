/** No projects yet: start one from a prompt (named from it), or create an empty one with a name. */
import { Button } from "../../../components/ui/button";
import type { PendingStart } from "../../start/pending-start";
import { StartPrompt } from "../../start/start-prompt";

export function ProjectsEmptyState({
  onCreate,
  onStart,
  starting,
  failedStart,
}: {
  onCreate: () => void;
  onStart: (start: PendingStart) => Promise<boolean>;
  starting: boolean;
  /** A prompt saved before sign-in whose start failed: back in the box to try again. */
  failedStart?: PendingStart | null;
}) {
  return (
    <div className="flex flex-col items-center justify-center rounded-lg border border-dashed px-6 py-16 text-center" data-testid="projects-empty">
      <h2 className="text-lg font-semibold">No projects yet</h2>
      <p className="mt-1 text-sm text-muted-foreground">Describe what you want to build: a project is made for it and the agent starts right away.</p>
      <StartPrompt onStart={onStart} busy={starting} initial={failedStart} className="mt-6" />
      <p className="mt-8 text-xs text-muted-foreground">Or start from an empty project with a name of your choosing.</p>
      <Button variant="outline" className="mt-3" onClick={onCreate}>
        Create Your First Project
      </Button>
    </div>
  );
}
