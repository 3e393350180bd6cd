/**
 * Keeps the cached file list in step with the WebSocket's file events and says whether they are flowing.
 * After a reconnect the list is refetched once, since events sent while the socket was down are lost;
 * while it is down, the 5 s poll carries on alone.
 */
import type { ProjectFile } from "@shared/schemas/file";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { projectEvents } from "../../api/project-events";
import { fileKeys, projectKeys } from "../../api/query-keys";
import { applyFileEvent } from "./apply-file-event";

export function useFileEvents(projectId: string): { live: boolean } {
  const queryClient = useQueryClient();
  const [live, setLive] = useState(() => projectEvents.isLive(projectId));

  useEffect(() => {
    if (!projectId) return;
    let wasLive = projectEvents.isLive(projectId);
    let droppedOnce = false;
    return projectEvents.subscribe(projectId, {
      onEvent: (event) => {
        queryClient.setQueryData<ProjectFile[]>(fileKeys.list(projectId), (list) => applyFileEvent(list, event));
        // A file change is a change of the project: its card on /projects shows a new "Updated" time.
        void queryClient.invalidateQueries({ queryKey: projectKeys.all, exact: true });
      },
      onLive: (next) => {
        setLive(next);
        if (!next && wasLive) droppedOnce = true;
        if (next && droppedOnce) void queryClient.invalidateQueries({ queryKey: fileKeys.list(projectId), exact: true });
        wasLive = next;
      },
    });
  }, [projectId, queryClient]);

  return { live };
}
