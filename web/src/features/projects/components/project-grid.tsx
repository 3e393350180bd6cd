/** The project grid (1, 2 or 3 columns as the width allows) and its loading skeleton of three cards. */
import type { Project } from "@shared/schemas/project";
import type { ReactNode } from "react";
import { Skeleton } from "../../../components/ui/skeleton";
import { ProjectCard } from "./project-card";

function Grid({ children, label }: { children: ReactNode; label: string }) {
  return (
    // Columns follow the space beside the sidebar, not the window: 1, then 2, then 3.
    <div className="@container">
      <div aria-label={label} className="grid grid-cols-1 gap-4 @xl:grid-cols-2 @3xl:grid-cols-3">
        {children}
      </div>
    </div>
  );
}

export function ProjectGrid({ projects }: { projects: Project[] }) {
  return (
    <Grid label="Projects">
      {projects.map((project) => (
        <ProjectCard key={project.id} project={project} />
      ))}
    </Grid>
  );
}

export function ProjectGridSkeleton() {
  return (
    <Grid label="Loading projects">
      {[0, 1, 2].map((i) => (
        <div key={i} data-testid="project-skeleton" className="rounded-lg border bg-card p-5">
          <Skeleton className="h-5 w-2/3" />
          <Skeleton className="mt-3 h-4 w-full" />
          <Skeleton className="mt-2 h-4 w-4/5" />
          <Skeleton className="mt-5 h-3 w-1/3" />
        </div>
      ))}
    </Grid>
  );
}
