/**
 * The Preview's `app` parts around the frame: the status line, the frame itself (or, when app crashed, its
 * last output with Restart in its place), and the Logs panel when opened. When app comes up again (after a
 * start, restart or crash) the frame is loaded afresh: what it showed meanwhile was the proxy's "nothing is
 * answering" page or the old app.
 */
import { APP_PROCESS } from "@shared/schemas/processes";
import { Fragment, useEffect, useRef, useState, type ReactNode } from "react";
import { useAppProcess } from "../use-app-process";
import { AppStatusLine } from "./app-status-line";
import { CrashedApp } from "./crashed-app";
import { LogsPanel } from "./logs-panel";

export function AppProcessArea({ projectId, children }: { projectId: string; children: ReactNode }) {
  const { app, lines, restart } = useAppProcess(projectId);
  const [logsOpen, setLogsOpen] = useState(false);
  const [comeUps, setComeUps] = useState(0);
  const previous = useRef<string | undefined>(undefined);
  const status = app?.status;
  useEffect(() => {
    if (status === "running" && previous.current && previous.current !== "running") setComeUps((n) => n + 1);
    previous.current = status;
  }, [status]);
  return (
    <>
      <AppStatusLine
        app={app}
        logsOpen={logsOpen}
        restarting={restart.isPending}
        onToggleLogs={() => setLogsOpen((open) => !open)}
        onRestart={() => restart.mutate()}
      />
      {app?.name === APP_PROCESS && app.status === "crashed" ? (
        <CrashedApp projectId={projectId} app={app} lines={lines} restarting={restart.isPending} onRestart={() => restart.mutate()} />
      ) : (
        <Fragment key={comeUps}>{children}</Fragment>
      )}
      {logsOpen && (
        <div id="app-logs">
          <LogsPanel lines={lines} className="h-56" />
        </div>
      )}
    </>
  );
}
