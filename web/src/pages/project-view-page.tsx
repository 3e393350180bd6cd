/** Placeholder for /project/{id}/{view} inside the signed-in layout, until each view gets its full build. */
import { describeError } from "../api/api-error";
import { projectViewIcons } from "../components/layout/app-sidebar";
import { Spinner } from "../components/ui/spinner";
import { type ProjectView, projectViewLabels } from "../features/projects/project-views";
import { useProject } from "../features/projects/use-project";

export function ProjectViewPage({ id, view }: { id: string; view: ProjectView }) {
  const project = useProject(id);
  const Icon = projectViewIcons[view];
  return (
    <div className="mx-auto w-full max-w-6xl px-4 py-6 md:px-6">
      <h1 className="text-2xl font-bold tracking-tight">{projectViewLabels[view]}</h1>
      <div className="mt-1 text-sm text-muted-foreground" data-testid="project-name">
        {project.isPending ? <Spinner className="size-4" /> : project.isError ? describeError(project.error) : project.data.name}
      </div>
      <div className="mt-8 flex flex-col items-center rounded-lg border border-dashed px-6 py-16 text-center text-muted-foreground">
        <Icon className="size-8" />
        <p className="mt-3 text-sm">This view is coming soon.</p>
      </div>
    </div>
  );
}
