/** The five views of a project, in sidebar order, with their labels and paths. */
export const projectViews = ["preview", "chat", "files", "database", "terminal"] as const;
export type ProjectView = (typeof projectViews)[number];

export const projectViewLabels: Record<ProjectView, string> = {
  preview: "Preview",
  chat: "Agent Chat",
  files: "Files",
  database: "Database",
  terminal: "Terminal",
};

export function projectPath(id: string, view: ProjectView = "chat"): string {
  return `/project/${encodeURIComponent(id)}/${view}`;
}
