/** One project in the grid: name, description, sandbox id and last update; opens the project's chat. */
import type { Project } from "@shared/schemas/project";
import { Link } from "wouter";
import { formatRelativeTime } from "../../../lib/relative-time";
import { projectPath } from "../project-views";

export function ProjectCard({ project }: { project: Project }) {
  return (
    <Link
      href={projectPath(project.id, "chat")}
      data-testid="project-card"
      className="group flex flex-col rounded-lg border bg-card p-5 transition-colors hover:border-primary/60 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
    >
      <h3 className="truncate font-semibold">{project.name}</h3>
      <p className="mt-1 line-clamp-2 min-h-10 text-sm text-muted-foreground">
        {project.description || "No description"}
      </p>
      <div className="mt-4 flex items-center justify-between gap-2 text-xs text-muted-foreground">
        {project.sandboxId ? (
          <span className="truncate font-mono" title={project.sandboxId}>
            {project.sandboxId}
          </span>
        ) : (
          <span />
        )}
        <time dateTime={project.updatedAt} className="shrink-0">
          Updated {formatRelativeTime(project.updatedAt)}
        </time>
      </div>
    </Link>
  );
}
