/** In place of the empty frame when `app` has crashed: what it printed last, and Restart. */
import type { ProcessInfo, ProcessLogLine } from "@shared/schemas/processes";
import { Button } from "../../../components/ui/button";
import { LogsPanel } from "./logs-panel";

/** Lines of output the crashed view shows (the Logs panel has the rest). */
export const CRASH_LINES = 40;

export function CrashedApp({ app, lines, restarting, onRestart }: { app: ProcessInfo; lines: ProcessLogLine[]; restarting: boolean; onRestart: () => void }) {
  return (
    <div
      data-testid="app-crashed"
      role="alert"
      className="flex min-h-[360px] flex-1 flex-col gap-3 rounded-xl border border-destructive/40 bg-card p-4 shadow-sm"
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div>
          <h2 className="font-semibold">The app crashed</h2>
          <p className="text-sm text-muted-foreground">
            <code className="font-mono">{app.command}</code> exited{app.exitCode === null ? "" : ` with code ${app.exitCode}`}
            {app.restarts > 0 ? ` after ${app.restarts} restart${app.restarts === 1 ? "" : "s"}` : ""}. Its last output:
          </p>
        </div>
        <Button onClick={onRestart} disabled={restarting}>
          {restarting ? "Restarting…" : "Restart"}
        </Button>
      </div>
      <LogsPanel lines={lines.slice(-CRASH_LINES)} className="min-h-0 flex-1" testId="app-crash-logs" />
    </div>
  );
}
