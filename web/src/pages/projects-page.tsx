/** /projects: the user's projects, the New Project dialog, and the projects others share with them. */
import { useEffect, useState } from "react";
import { describeError } from "../api/api-error";
import { Button } from "../components/ui/button";
import { PlusIcon } from "../components/ui/icons";
import { toast } from "../components/ui/use-toast";
import { useAuth } from "../features/auth/use-auth";
import { NewProjectDialog } from "../features/projects/components/new-project-dialog";
import { ProjectGrid, ProjectGridSkeleton } from "../features/projects/components/project-grid";
import { ProjectsEmptyState } from "../features/projects/components/projects-empty-state";
import { useProjects } from "../features/projects/use-projects";
import { useStartProject } from "../features/start/use-start-project";
import { SharedProjects } from "../features/team/shared-projects";
import { Spinner } from "../components/ui/spinner";

export function ProjectsPage() {
  const projects = useProjects();
  const { signOut } = useAuth();
  const [dialogOpen, setDialogOpen] = useState(false);
  // A prompt typed on the landing page before sign-in starts its project now.
  const starter = useStartProject({ resumePending: true });
  // null: the API answered 401, it does not accept this session (revoked, or from another deployment).
  const sessionRefused = projects.data === null;
  useEffect(() => {
    if (!sessionRefused) return;
    toast({ title: "Session expired", description: "Please sign in again.", variant: "destructive" });
    void signOut({ expired: true });
  }, [sessionRefused, signOut]);
  const openDialog = () => setDialogOpen(true);

  return (
    <div className="mx-auto w-full max-w-6xl px-4 py-6 md:px-6 md:py-8">
      <div>
        <div className="mb-8 flex flex-wrap items-start justify-between gap-4">
          <div>
            <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">Projects</h1>
            <p className="mt-1 text-muted-foreground">Manage your AI-powered coding projects</p>
          </div>
          <Button onClick={openDialog}>
            <PlusIcon />
            New Project
          </Button>
        </div>

        {starter.resumed ? (
          <div
            role="status"
            data-testid="starting-project"
            className="flex flex-col items-center justify-center gap-3 rounded-lg border px-6 py-16 text-center"
          >
            <Spinner className="size-6" />
            <p className="font-medium">Starting your project...</p>
            <p className="max-w-lg truncate text-sm text-muted-foreground">{starter.resumed.prompt}</p>
          </div>
        ) : projects.isPending || sessionRefused ? (
          <ProjectGridSkeleton />
        ) : projects.isError ? (
          <div role="alert" className="rounded-lg border border-destructive/50 p-6 text-sm">
            <p className="font-medium">Could not load your projects.</p>
            <p className="mt-1 text-muted-foreground">{describeError(projects.error)}</p>
            <Button variant="outline" size="sm" className="mt-4" onClick={() => projects.refetch()}>
              Try again
            </Button>
          </div>
        ) : projects.data?.length === 0 ? (
          <ProjectsEmptyState onCreate={openDialog} onStart={starter.start} starting={starter.busy} failedStart={starter.failed} />
        ) : (
          <ProjectGrid projects={projects.data ?? []} />
        )}
        <SharedProjects />
      </div>
      <NewProjectDialog open={dialogOpen} onClose={() => setDialogOpen(false)} />
    </div>
  );
}
