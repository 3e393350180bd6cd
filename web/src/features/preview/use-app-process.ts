/**
 * The project's `app` process for the Preview: its state from the processes list (kept current by
 * `process.status` events on the WebSocket, polled only while the socket is down), and its output (the logs
 * endpoint once, then `process.output` events). When app starts listening on another port the preview URL
 * is asked for again, since the server points the preview at it. `restart` restarts app.
 */
import { APP_PROCESS, type ProcessInfo, type ProcessLogLine } from "@shared/schemas/processes";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { describeError } from "../../api/api-error";
import { api } from "../../api/endpoints";
import { queries } from "../../api/queries";
import { fileEvents } from "../../api/file-events";
import { sandboxKeys } from "../../api/query-keys";
import { toast } from "../../components/ui/use-toast";
import { appendLogLines, mergeLogLines } from "./app-log-lines";

const POLL_WHEN_OFFLINE_MS = 5_000;

export function useAppProcess(projectId: string) {
  const queryClient = useQueryClient();
  const [live, setLive] = useState(() => fileEvents.isLive(projectId));
  const processes = useQuery({ ...queries.processes(projectId), refetchInterval: live ? false : POLL_WHEN_OFFLINE_MS });
  const app = processes.data?.find((p) => p.name === APP_PROCESS) ?? null;
  const [lines, setLines] = useState<ProcessLogLine[]>([]);
  const fetched = useRef(false);
  const early = useRef<ProcessLogLine[]>([]);
  const port = app?.ports[0];

  useEffect(() => {
    fetched.current = false;
    early.current = [];
    setLines([]);
    return fileEvents.subscribe(projectId, {
      onEvent: () => {},
      onProcessEvent: (event) => {
        if (event.type === "process.status") {
          queryClient.setQueryData<ProcessInfo[]>(sandboxKeys.processes(projectId), (list) => {
            const others = (list ?? []).filter((p) => p.name !== event.process.name);
            return [...others, event.process];
          });
        } else if (event.name === APP_PROCESS) {
          if (fetched.current) setLines((current) => appendLogLines(current, event.lines));
          else early.current.push(...event.lines);
        }
      },
      onLive: (next) => {
        setLive(next);
        // Events sent while the socket was down are lost: read the list again.
        if (next) void queryClient.invalidateQueries({ queryKey: sandboxKeys.processes(projectId), exact: true });
      },
    });
  }, [projectId, queryClient]);

  const hasApp = Boolean(app);
  useEffect(() => {
    if (!hasApp || fetched.current) return;
    let cancelled = false;
    api.processes.logs(projectId, APP_PROCESS).then(
      (answer) => {
        if (cancelled) return;
        fetched.current = true;
        setLines(mergeLogLines(answer.lines, early.current));
        early.current = [];
      },
      () => {},
    );
    return () => {
      cancelled = true;
    };
  }, [projectId, hasApp]);

  useEffect(() => {
    if (port) void queryClient.invalidateQueries({ queryKey: sandboxKeys.url(projectId), exact: true });
  }, [port, projectId, queryClient]);

  const restart = useMutation({
    mutationFn: () => api.processes.restart(projectId, APP_PROCESS),
    onSuccess: (process) =>
      queryClient.setQueryData<ProcessInfo[]>(sandboxKeys.processes(projectId), (list) => [...(list ?? []).filter((p) => p.name !== process.name), process]),
    onError: (err) => toast({ title: "Failed to restart the app", description: describeError(err), variant: "destructive" }),
  });

  return { app, lines, loading: processes.isPending, restart };
}

export type AppProcess = ReturnType<typeof useAppProcess>;
