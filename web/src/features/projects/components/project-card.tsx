/**
 * One project in the grid: name (one line), description (two lines), sandbox id when there is one, and the
 * last update; the card opens the project's chat. A delete button shows on hover or keyboard focus and asks
 * the browser to confirm first.
 */
import { LiveBadge } from "../../publish/live-badge";
import type { Project } from "@shared/schemas/project";
import { Link } from "wouter";
import { describeError } from "../../../api/api-error";
import { BoxIcon, TrashIcon } from "../../../components/ui/icons";
import { toast } from "../../../components/ui/use-toast";
import { cn } from "../../../lib/cn";
import { formatRelativeTime } from "../../../lib/relative-time";
import { projectPath } from "../project-views";
import { useDeleteProject } from "../use-delete-project";

export const DELETE_PROJECT_CONFIRMATION = "Are you sure you want to delete this project?";

export function ProjectCard({ project }: { project: Project }) {
  const deleteProject = useDeleteProject();

  const remove = () => {
    if (!window.confirm(DELETE_PROJECT_CONFIRMATION)) return;
    deleteProject.mutate(project.id, {
      onSuccess: () => toast({ title: "Project deleted", description: "The project has been removed." }),
      onError: (err) => toast({ title: "Failed to delete project", description: describeError(err), variant: "destructive" }),
    });
  };

  return (
    <div
      data-testid="project-card"
      className={cn(
        "group relative flex flex-col rounded-lg border bg-card transition-colors hover:border-primary/60 focus-within:border-primary/60",
        deleteProject.isPending && "pointer-events-none opacity-60",
      )}
    >
      <Link
        href={projectPath(project.id, "chat")}
        className="flex flex-1 flex-col rounded-lg p-5 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
      >
        <h3 className="truncate pr-8 font-semibold" data-testid="project-name">
          {project.name}
        </h3>
        <p className={cn("mt-1 line-clamp-2 min-h-10 text-sm text-muted-foreground", !project.description && "italic")}>
          {project.description || "No description"}
        </p>
        <LiveBadge projectId={project.id} />
        <div className="mt-4 flex items-center justify-between gap-3 text-xs text-muted-foreground">
          {project.sandboxId ? (
            <span className="flex min-w-0 items-center gap-1.5 font-mono" title={project.sandboxId} data-testid="project-sandbox">
              <BoxIcon className="size-3.5" />
              <span className="truncate">{project.sandboxId}</span>
            </span>
          ) : (
            <span />
          )}
          <time dateTime={project.updatedAt} className="shrink-0">
            Updated {formatRelativeTime(project.updatedAt)}
          </time>
        </div>
      </Link>
      <button
        type="button"
        onClick={remove}
        disabled={deleteProject.isPending}
        aria-label={`Delete project ${project.name}`}
        title="Delete project"
        className={cn(
          "absolute top-3 right-3 inline-flex size-8 items-center justify-center rounded-md text-muted-foreground transition",
          "hover:bg-destructive/10 hover:text-destructive focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring",
          // Hidden until the card is hovered or something in it has keyboard focus; always shown on touch screens.
          "opacity-100 [@media(hover:hover)]:opacity-0 [@media(hover:hover)]:group-hover:opacity-100 [@media(hover:hover)]:group-focus-within:opacity-100",
        )}
      >
        <TrashIcon />
      </button>
    </div>
  );
}
