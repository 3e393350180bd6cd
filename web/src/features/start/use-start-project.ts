/**
 * Starting a project from a prompt, signed in: creates and starts it (start-project.ts), then opens its
 * chat. `resumePending` does the same for a prompt saved before sign-in (pending-start.ts), once.
 *
 * @example
 * const starter = useStartProject();
 * <StartPrompt onStart={starter.start} busy={starter.busy} />
 */
import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useState } from "react";
import { useLocation } from "wouter";
import { describeError } from "../../api/api-error";
import { toast } from "../../components/ui/use-toast";
import { projectPath } from "../projects/project-views";
import { type PendingStart, takePendingStart } from "./pending-start";
import { startProject } from "./start-project";

let taking: Promise<PendingStart | null> | null = null;

/**
 * The saved prompt for one caller only: two pages mounted at once (or React mounting one twice in
 * development) share the read, and the first to hear back gets the prompt, the other nothing.
 */
function claimPendingStart(): Promise<PendingStart | null> {
  taking ??= takePendingStart().catch(() => null);
  const mine = taking;
  return mine.then((pending) => {
    if (taking !== mine) return null;
    taking = null;
    return pending;
  });
}

export function useStartProject({ resumePending = false } = {}) {
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const [busy, setBusy] = useState(false);
  /** The prompt being started from before sign-in, shown while it starts (or put back in the box when it fails). */
  const [resumed, setResumed] = useState<PendingStart | null>(null);
  /** A saved prompt whose start failed: offered again in the prompt box. */
  const [failed, setFailed] = useState<PendingStart | null>(null);

  const start = useCallback(
    async (pending: PendingStart): Promise<boolean> => {
      setBusy(true);
      try {
        const project = await startProject(queryClient, pending);
        navigate(projectPath(project.id, "chat"));
        return true;
      } catch (err) {
        toast({ title: "Could not start the project", description: describeError(err), variant: "destructive" });
        setBusy(false);
        return false;
      }
    },
    [queryClient, navigate],
  );

  useEffect(() => {
    if (!resumePending) return;
    void claimPendingStart().then((pending) => {
      if (!pending) return;
      setResumed(pending);
      void start(pending).then((started) => {
        if (started) return;
        setFailed(pending);
        setResumed(null);
      });
    });
  }, [resumePending, start]);

  return { start, busy, resumed, failed };
}
