/** Which signed-in screen the address names: the project list, or one view of one project. */
import { useRoute } from "wouter";
import { type ProjectView, projectViews } from "../projects/project-views";

export type ProjectLocation = { id: string; view: ProjectView } | null;

export function isProjectView(value: string): value is ProjectView {
  return (projectViews as readonly string[]).includes(value);
}

/** The paths only a signed-in user reaches: /projects, /admin and /project/{id}/{preview|chat|files|terminal}. */
export function isSignedInPath(pathname: string): boolean {
  if (/^\/(projects|admin)\/?$/.test(pathname)) return true;
  const match = /^\/project\/[^/]+\/([^/]+)\/?$/.exec(pathname);
  return Boolean(match?.[1] && isProjectView(match[1]));
}

/** The project and view in the address, or null outside a project. */
export function useProjectLocation(): ProjectLocation {
  const [, params] = useRoute<{ id: string; view: string }>("/project/:id/:view");
  if (!params?.id || !params.view || !isProjectView(params.view)) return null;
  return { id: params.id, view: params.view };
}
