/**
 * /project/{id}/preview (spec §2 Preview): 'Setting up sandbox...' until the project has a sandbox, then the
 * framed app with its status badge and toolbar.
 */
import { describeError } from "../api/api-error";
import { Button } from "../components/ui/button";
import { Spinner } from "../components/ui/spinner";
import { PreviewView } from "../features/preview/components/preview-view";
import { usePollUntilSandbox } from "../features/preview/use-poll-until-sandbox";
import { useProject } from "../features/projects/use-project";

export function PreviewPage({ projectId }: { projectId: string }) {
  const project = useProject(projectId);
  usePollUntilSandbox(project);

  if (project.isPending) return <CenteredSpinner />;
  if (project.isError) {
    return (
      <div role="alert" className="m-4 rounded-lg border border-destructive/50 p-6 text-sm md:m-6">
        <p className="font-medium">Could not load the project.</p>
        <p className="mt-1 text-muted-foreground">{describeError(project.error)}</p>
        <Button variant="outline" size="sm" className="mt-4" onClick={() => project.refetch()}>
          Try again
        </Button>
      </div>
    );
  }
  const { sandboxId } = project.data;
  if (!sandboxId) {
    return (
      <div className="flex flex-1 flex-col items-center justify-center gap-3 py-24 text-muted-foreground" data-testid="preview-page">
        <Spinner className="size-8" />
        <p className="text-sm">Setting up sandbox...</p>
      </div>
    );
  }
  return <PreviewView project={{ ...project.data, sandboxId }} />;
}

function CenteredSpinner() {
  return (
    <div className="flex flex-1 items-center justify-center py-24 text-muted-foreground">
      <Spinner className="size-8" />
    </div>
  );
}
