/** Below 768 px inside a project: a bar at the bottom with the five views. */
import { Link } from "wouter";
import { type ProjectView, projectPath, projectViews } from "../projects/project-views";
import { cn } from "../../lib/cn";
import { projectViewIcons } from "./app-sidebar";

const SHORT_LABELS: Record<ProjectView, string> = {
  preview: "Preview",
  chat: "Agent",
  files: "Files",
  database: "Data",
  terminal: "Terminal",
};

export function MobileBottomBar({ projectId, view }: { projectId: string; view: ProjectView }) {
  return (
    <nav
      aria-label="Project views"
      className="fixed inset-x-0 bottom-0 z-30 border-t bg-background/95 pb-[env(safe-area-inset-bottom)] backdrop-blur md:hidden"
    >
      <ul className="grid h-16 grid-cols-5">
        {projectViews.map((v) => {
          const Icon = projectViewIcons[v];
          const active = v === view;
          return (
            <li key={v}>
              <Link
                href={projectPath(projectId, v)}
                aria-current={active ? "page" : undefined}
                className={cn(
                  "flex h-full flex-col items-center justify-center gap-1 text-xs font-medium transition-colors",
                  "focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-inset",
                  active ? "text-primary" : "text-muted-foreground hover:text-foreground",
                )}
              >
                <Icon className="size-5" />
                {SHORT_LABELS[v]}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
