/**
 * /project/{id}/preview (spec §2 Preview): 'Setting up sandbox...' until the project has a sandbox, then the
 * framed app with its status badge and toolbar.
 */
import { Spinner } from "../components/ui/spinner";
import { PreviewView } from "../features/preview/components/preview-view";
import { SandboxGate } from "../features/projects/components/sandbox-gate";

export function PreviewPage({ projectId }: { projectId: string }) {
  return (
    <SandboxGate
      projectId={projectId}
      noSandbox={
        <div className="flex flex-1 flex-col items-center justify-center gap-3 py-24 text-muted-foreground" data-testid="preview-page">
          <Spinner className="size-8" />
          <p className="text-sm">Setting up sandbox...</p>
        </div>
      }
    >
      {(project) => <PreviewView project={project} />}
    </SandboxGate>
  );
}
