/** The project card's "Live" badge with the site's address (not a link: the card itself is one). */
import { useLiveSites } from "./use-publish";

export function LiveBadge({ projectId }: { projectId: string }) {
  const sites = useLiveSites();
  const site = sites.data?.find((s) => s.projectId === projectId);
  if (!site) return null;
  return (
    <span className="mt-2 flex min-w-0 items-center gap-1.5 text-xs" data-testid="project-live-badge" title={site.url}>
      <span className="rounded bg-green-600/15 px-1.5 py-0.5 font-medium text-green-700 dark:text-green-400">Live</span>
      <span className="truncate font-mono text-muted-foreground">{site.url.replace(/^https?:\/\//, "")}</span>
    </span>
  );
}
