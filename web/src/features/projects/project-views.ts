/** The four views of a project, in sidebar order, with their labels and paths. */
export const projectViews = ["preview", "chat", "files", "terminal"] as const;
export type ProjectView = (typeof projectViews)[number];

export const projectViewLabels: Record<ProjectView, string> = {
  preview: "Preview",
  chat: "Agent Chat",
  files: "Files",
  terminal: "Terminal",
};

export function projectPath(id: string, view: ProjectView = "chat"): string {
  return `/project/${encodeURIComponent(id)}/${view}`;
}
