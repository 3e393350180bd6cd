/**
 * One line beside the Preview toolbar saying what the project's `app` process is doing ("Starting…",
 * "Running on port N", "Crashed"), with the Logs toggle and, unless it is running, Restart.
 */
import type { ProcessInfo } from "@shared/schemas/processes";
import { Button } from "../../../components/ui/button";
import { cn } from "../../../lib/cn";
import { appStatusText } from "../app-log-lines";

const DOT: Record<string, string> = {
  starting: "bg-amber-400 animate-pulse",
  running: "bg-emerald-500",
  crashed: "bg-red-500",
  exited: "bg-zinc-400",
};

export function AppStatusLine({
  app,
  logsOpen,
  restarting,
  onToggleLogs,
  onRestart,
}: {
  app: ProcessInfo | null;
  logsOpen: boolean;
  restarting: boolean;
  onToggleLogs: () => void;
  onRestart: () => void;
}) {
  return (
    <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm" data-testid="app-status-line">
      <span className="flex items-center gap-2" role="status" aria-live="polite">
        <span aria-hidden className={cn("size-2 rounded-full", DOT[app?.status ?? "exited"])} />
        <span data-testid="app-status" data-status={app?.status ?? "none"} className="text-muted-foreground">
          {appStatusText(app)}
        </span>
      </span>
      <Button variant="ghost" size="sm" onClick={onToggleLogs} aria-expanded={logsOpen} aria-controls="app-logs">
        {logsOpen ? "Hide logs" : "Logs"}
      </Button>
      {app && app.status !== "running" && app.status !== "starting" && (
        <Button variant="outline" size="sm" onClick={onRestart} disabled={restarting}>
          Restart
        </Button>
      )}
    </div>
  );
}
