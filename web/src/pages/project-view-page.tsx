/** Placeholder for /project/{id}/{view}: names the view and the project until each view is built. */
import { Link } from "wouter";
import { describeError } from "../api/api-error";
import { AppHeader } from "../components/layout/app-header";
import { Spinner } from "../components/ui/spinner";
import { type ProjectView, projectPath, projectViewLabels, projectViews } from "../features/projects/project-views";
import { useProject } from "../features/projects/use-project";
import { cn } from "../lib/cn";

export function ProjectViewPage({ id, view }: { id: string; view: ProjectView }) {
  const project = useProject(id);
  return (
    <div className="min-h-screen">
      <AppHeader />
      <main className="mx-auto max-w-6xl px-4 py-8">
        <Link href="/projects" className="text-sm text-muted-foreground hover:text-foreground">
          ← Projects
        </Link>
        <h1 className="mt-4 text-3xl font-bold tracking-tight">{projectViewLabels[view]}</h1>
        <div className="mt-1 text-muted-foreground" data-testid="project-name">
          {project.isPending ? <Spinner className="size-4" /> : project.isError ? describeError(project.error) : project.data.name}
        </div>
        <nav className="mt-6 flex gap-2" aria-label="Project views">
          {projectViews.map((v) => (
            <Link
              key={v}
              href={projectPath(id, v)}
              className={cn("rounded-md px-3 py-1.5 text-sm", v === view ? "bg-muted font-medium" : "hover:bg-muted")}
            >
              {projectViewLabels[v]}
            </Link>
          ))}
        </nav>
        <p className="mt-10 text-sm text-muted-foreground">This view is coming soon.</p>
      </main>
    </div>
  );
}
