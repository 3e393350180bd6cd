/**
 * The one loading gate of the screens that need the project's sandbox (Preview, Terminal): a spinner while
 * the project loads, an error with a retry when it cannot be loaded, the screen's own "no sandbox yet"
 * state (the project is refetched every 5 s meanwhile), and then the screen itself with a sandboxId.
 *
 * @example
 * <SandboxGate projectId={id} noSandbox={<p>Setting up sandbox...</p>}>
 *   {(project) => <PreviewView project={project} />}
 * </SandboxGate>
 */
import type { Project } from "@shared/schemas/project";
import type { ReactNode } from "react";
import { describeError } from "../../../api/api-error";
import { Button } from "../../../components/ui/button";
import { Spinner } from "../../../components/ui/spinner";
import { usePollUntilSandbox } from "../use-poll-until-sandbox";
import { useProject } from "../use-project";

export type ProjectWithSandbox = Project & { sandboxId: string };

export function SandboxGate({
  projectId,
  noSandbox,
  children,
}: {
  projectId: string;
  noSandbox: ReactNode;
  children: (project: ProjectWithSandbox) => ReactNode;
}) {
  const project = useProject(projectId);
  usePollUntilSandbox(project);

  if (project.isPending) {
    return (
      <div className="flex flex-1 items-center justify-center py-24 text-muted-foreground" data-testid="project-loading">
        <Spinner className="size-8" />
      </div>
    );
  }
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
  if (!sandboxId) return <>{noSandbox}</>;
  return <>{children({ ...project.data, sandboxId })}</>;
}
