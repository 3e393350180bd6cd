/**
 * The Activity dialog's content: who did what and when in the project, newest first. It is read again when the
 * project socket says a line was added (`activity.changed`), or a run started.
 */
import { ACTIVITY_CHANGED, RUN_STARTED } from "@shared/events/team-events";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { describeError } from "../../api/api-error";
import { queries } from "../../api/queries";
import { projectKeys } from "../../api/query-keys";
import { Spinner } from "../../components/ui/spinner";
import { formatRelativeTime } from "../../lib/relative-time";
import { activityLine } from "./activity-line";
import { useTeamEvents } from "./use-team-events";

export function ActivityPanel({ projectId }: { projectId: string }) {
  const queryClient = useQueryClient();
  const activity = useQuery(queries.activity(projectId));
  useTeamEvents(projectId, (event) => {
    if (event.type === ACTIVITY_CHANGED || event.type === RUN_STARTED) void queryClient.invalidateQueries({ queryKey: projectKeys.activity(projectId) });
  });

  if (activity.isPending) return <Spinner className="size-5" />;
  if (activity.isError)
    return (
      <p role="alert" className="text-sm text-destructive">
        {describeError(activity.error)}
      </p>
    );
  if (activity.data.length === 0) return <p className="text-sm text-muted-foreground">Nothing has happened here yet.</p>;
  return (
    <ul className="max-h-96 divide-y overflow-y-auto rounded-md border" data-testid="activity-list">
      {activity.data.map((entry) => (
        <li key={entry.id} className="flex items-baseline gap-3 px-3 py-2 text-sm" data-testid="activity-entry">
          <span className="min-w-0 flex-1">{activityLine(entry)}</span>
          <time dateTime={entry.at} title={new Date(entry.at).toLocaleString()} className="shrink-0 text-xs text-muted-foreground">
            {formatRelativeTime(entry.at)}
          </time>
        </li>
      ))}
    </ul>
  );
}
