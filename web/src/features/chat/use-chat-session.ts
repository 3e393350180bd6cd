/**
 * The chat's send/stream state machine: idle → streaming → done (history and
 * files refetched), one turn at a time. It also reattaches to a run already going when the page opens
 * (GET …/active replays it), stops a run (POST …/stop), refetches when the tab becomes visible again, and
 * raises every chat toast (`chatToasts` below: a refused send, a dropped stream, an answer finished while hidden).
 *
 * @example
 * const chat = useChatSession(projectId);
 * const outcome = await chat.send({ text: "Build a todo app", attachments: [], enableReasoning: false });
 */
import type { Message } from "@shared/schemas/message";
import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useRef, useState } from "react";
import { ApiError, describeError } from "../../api/api-error";
import { api } from "../../api/endpoints";
import { fileKeys, messageKeys, projectKeys, usageKeys, versionKeys } from "../../api/query-keys";
import { readSse } from "../../api/sse";
import { type ToastInput, toast } from "../../components/ui/use-toast";
import { applyStreamEvent, emptyLiveRun, type LiveRun } from "./live-run";
import { messageContent, type PendingTurn, settledMessages } from "./pending-turn";
import { parseStreamEvent } from "./stream-event";

export type SendInput = { text: string; attachments: string[]; enableReasoning: boolean };
/** sent: the turn ran (or is running); refused: nothing was started, so the draft can be put back; blocked: busy or empty. */
/** `abandoned`: the chat went away (unmounted) before the server answered; the message may not have arrived. */
export type SendOutcome = "sent" | "refused" | "blocked" | "abandoned";

const BACKGROUND = "Your request was processed in the background.";
export const chatToasts = {
  refused: (message: string): ToastInput => ({ title: "Failed to send message", description: message, variant: "destructive" }),
  budgetSpent: (message: string): ToastInput => ({ title: "Monthly token budget used", description: message, variant: "destructive", durationMs: 10_000 }),
  noBody: (): ToastInput => ({ title: "Failed to send message", description: "No response body", variant: "destructive" }),
  streamError: (message: string): ToastInput => ({ title: "Error", description: message, variant: "destructive" }),
  interrupted: (): ToastInput => ({ title: "Connection interrupted", description: "Refreshing to show completed work..." }),
  interruptedWhileHidden: (): ToastInput => ({ title: "Processing Complete", description: BACKGROUND }),
  doneWhileHidden: (): ToastInput => ({ title: "AI Processing Complete", description: BACKGROUND }),
};

export function useChatSession(projectId: string) {
  const queryClient = useQueryClient();
  const [pending, setPending] = useState<PendingTurn | null>(null);
  const [stopping, setStopping] = useState(false);
  const busy = useRef(false);
  const hiddenDuringRun = useRef(false);
  /** The toast of a turn that ended while the tab was hidden, shown again on return. */
  const backgroundToast = useRef<ToastInput | null>(null);
  /** Aborted when the page goes away; the run itself carries on at the server. */
  const life = useRef(new AbortController());
  const autoResumes = useRef(0);

  const refresh = useCallback(
    (withProject = false) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: messageKeys.list(projectId) }),
        queryClient.invalidateQueries({ queryKey: fileKeys.list(projectId) }),
        // The conversation grew (context meter) and the run spent tokens (monthly budget).
        queryClient.invalidateQueries({ queryKey: projectKeys.context(projectId) }),
        queryClient.invalidateQueries({ queryKey: usageKeys.all }),
        // A run that changed files took versions of them (its answer then offers "Undo this run").
        queryClient.invalidateQueries({ queryKey: versionKeys.all(projectId) }),
        // A run may have created the sandbox or set the workflow command, and it moved the project's
        // "Updated" time: the project and the project list (its card) are refetched.
        withProject ? queryClient.invalidateQueries({ queryKey: projectKeys.all }) : null,
      ]).catch(() => {}),
    [queryClient, projectId],
  );

  const endTurn = useCallback(() => {
    busy.current = false;
    hiddenDuringRun.current = false;
    setPending(null);
    setStopping(false);
  }, []);

  const startTurn = useCallback((turn: PendingTurn) => {
    busy.current = true;
    hiddenDuringRun.current = document.hidden;
    backgroundToast.current = null;
    setPending(turn);
  }, []);

  const attachRef = useRef<() => Promise<void>>(async () => {});

  const onDropped = useCallback(async () => {
    const hidden = hiddenDuringRun.current || document.hidden;
    const note = hidden ? chatToasts.interruptedWhileHidden() : chatToasts.interrupted();
    toast(note);
    if (document.hidden) backgroundToast.current = note;
    await refresh(true);
    endTurn();
    // The run may still be going at the server: follow it again, once per turn.
    if (autoResumes.current++ < 1) void attachRef.current();
  }, [refresh, endTurn]);

  const onDone = useCallback(
    async (run: LiveRun) => {
      autoResumes.current = 0;
      const hidden = hiddenDuringRun.current;
      await refresh(true);
      if (hidden && !run.error) {
        toast(chatToasts.doneWhileHidden());
        if (document.hidden) backgroundToast.current = chatToasts.doneWhileHidden();
      }
      endTurn();
    },
    [refresh, endTurn],
  );

  /** Follows a run's event stream into `pending` until it ends, then settles the turn. */
  const follow = useCallback(
    async (res: Response) => {
      const signal = life.current.signal;
      if (!res.body) {
        toast(chatToasts.noBody());
        await refresh(true);
        endTurn();
        return;
      }
      let run = emptyLiveRun();
      let failed = false;
      try {
        await readSse(
          res.body,
          (data) => {
            const event = parseStreamEvent(data);
            if (!event || signal.aborted) return;
            run = applyStreamEvent(run, event);
            if (event.type === "error") toast(chatToasts.streamError(event.message));
            setPending((p) => (p ? { ...p, run } : p));
          },
          { signal },
        );
      } catch {
        failed = true;
      }
      if (signal.aborted) return endTurn();
      if (failed || !run.done) await onDropped();
      else await onDone(run);
    },
    [refresh, endTurn, onDropped, onDone],
  );

  const send = useCallback(
    async ({ text, attachments, enableReasoning }: SendInput): Promise<SendOutcome> => {
      const content = messageContent(text, attachments.length);
      if (busy.current || content === null) return "blocked";
      const history = queryClient.getQueryData<Message[]>(messageKeys.list(projectId)) ?? [];
      const user: Message = {
        id: `pending-${crypto.randomUUID()}`,
        projectId,
        role: "user",
        content,
        thinking: null,
        attachments,
        toolCalls: [],
        actions: [],
        createdAt: new Date().toISOString(),
      };
      startTurn({ user, baseline: settledMessages(history).length, run: emptyLiveRun() });
      autoResumes.current = 0;

      // This mount's signal, kept: if the chat unmounts and mounts again mid-send (React's StrictMode does that
      // in development), `life.current` is already the new mount's by the time the request fails.
      const signal = life.current.signal;
      let res: Response;
      try {
        res = await api.messages.stream(
          { projectId, content, ...(attachments.length ? { attachments } : {}), enableReasoning },
          { signal },
        );
      } catch (err) {
        if (signal.aborted) {
          endTurn();
          return "abandoned";
        }
        if (err instanceof ApiError) {
          // 409: a run is already going; 429: too many messages, or the month's tokens are spent. The message says which.
          toast(err.code === "budget_exhausted" ? chatToasts.budgetSpent(err.error) : chatToasts.refused(err.error));
          if (err.code === "budget_exhausted") void queryClient.invalidateQueries({ queryKey: usageKeys.all });
          endTurn();
          return "refused";
        }
        // The request never got an answer: the run may or may not have started.
        await onDropped();
        return "refused";
      }
      await follow(res);
      return "sent";
    },
    [queryClient, projectId, startTurn, endTurn, onDropped, follow],
  );

  /** Reattaches to the project's active run, if any (the page opened mid-run, or the connection dropped). */
  const attach = useCallback(
    async () => {
      if (busy.current) return;
      const signal = life.current.signal;
      let res: Response;
      try {
        res = await api.messages.active(projectId, { signal });
      } catch {
        return; // no active run to follow (or the API is unreachable): the history shows what was saved
      }
      if (res.status === 204 || !res.body || signal.aborted || busy.current) {
        void res.body?.cancel().catch(() => {});
        return;
      }
      startTurn({ user: null, baseline: 0, run: emptyLiveRun() });
      await follow(res);
    },
    [projectId, startTurn, follow],
  );
  attachRef.current = attach;

  const stop = useCallback(async () => {
    if (!busy.current) return;
    setStopping(true);
    try {
      const res = await api.messages.stop(projectId);
      // When it stopped, the stream ends with done { status: "stopped" }, the partial answer kept. When
      // there was nothing to stop yet (the run had not started), the button comes back.
      if (!res.stopped) setStopping(false);
    } catch (err) {
      setStopping(false);
      toast({ title: "Failed to stop", description: describeError(err), variant: "destructive" });
    }
  }, [projectId]);

  useEffect(() => {
    const controller = new AbortController();
    life.current = controller;
    void attach();
    return () => controller.abort();
  }, [attach]);

  useEffect(() => {
    const onVisibility = () => {
      if (document.hidden) {
        if (busy.current) hiddenDuringRun.current = true;
        return;
      }
      void refresh();
      const note = backgroundToast.current;
      backgroundToast.current = null;
      if (note) toast(note);
    };
    document.addEventListener("visibilitychange", onVisibility);
    return () => document.removeEventListener("visibilitychange", onVisibility);
  }, [refresh]);

  return { pending, sending: pending !== null, stopping, send, stop };
}
