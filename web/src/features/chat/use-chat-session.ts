/**
 * The chat's session: sends a message and follows its answer (follow-run.ts) until the turn ends, then
 * refetches the history and files; reattaches to a run already going when the page opens (GET …/active
 * replays it) and once after a dropped stream; stops a run (POST …/stop); refetches when the tab is shown
 * again; follows a run another member started when the project socket says so (`run.started`). Its states are
 * chat-session-reducer.ts's, its toasts chat-toasts.ts's.
 *
 * @example
 * const chat = useChatSession(projectId);
 * const outcome = await chat.send({ text: "Build a todo app", attachments: [], enableReasoning: false });
 */
import type { ChatMode } from "@shared/events/stream";
import type { Message } from "@shared/schemas/message";
import type { SelectedElement } from "@shared/schemas/selected-element";
import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useRef, useState } from "react";
import { ApiError, describeError } from "../../api/api-error";
import { api } from "../../api/endpoints";
import { fileKeys, messageKeys, projectKeys, usageKeys, versionKeys } from "../../api/query-keys";
import { toast } from "../../components/ui/use-toast";
import { createStore, useStore } from "../../lib/create-store";
import { type ChatAction, idleChatSession, mayResume, reduceChatSession } from "./chat-session-reducer";
import { chatToasts, refusedToast, turnEndToast } from "./chat-toasts";
import { followRun, letGo, openActiveRun } from "./follow-run";
import { messageContent, settledMessages } from "./pending-turn";
import { RUN_STARTED } from "@shared/events/team-events";
import { useAuth } from "../auth/use-auth";
import { useTeamEvents } from "../team/use-team-events";

/** `mode`: "plan" asks for a plan only (the agent reads, changes nothing); build by default. */
/** `elements`: picked in the preview (Select to edit); the model is told the message is about them. */
export type SendInput = { text: string; attachments: string[]; enableReasoning: boolean; mode?: ChatMode; elements?: SelectedElement[] };
/** sent: the turn ran (or is running); refused: nothing was started, so the draft can be put back; blocked: busy or empty. */
/** `abandoned`: the chat went away (unmounted) before the server answered; the message may not have arrived. */
export type SendOutcome = "sent" | "refused" | "blocked" | "abandoned";

export function useChatSession(projectId: string) {
  const queryClient = useQueryClient();
  const { user } = useAuth();
  // A store rather than React state: whether a turn is in flight is read synchronously, so two sends in
  // one tick cannot both start.
  const [session] = useState(() => createStore(idleChatSession));
  const state = useStore(session);
  const dispatch = useCallback((action: ChatAction) => session.set((s) => reduceChatSession(s, action)), [session]);
  const busy = useCallback(() => session.get().phase !== "idle", [session]);
  /** Aborted when the page goes away; the run itself carries on at the server. */
  const life = useRef(new AbortController());

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

  const attachRef = useRef<() => Promise<void>>(async () => {});

  /** The stream was cut (or the request never answered): the run may still be going at the server. */
  const onDropped = useCallback(async () => {
    const note = turnEndToast("dropped", { hidden: session.get().hiddenDuringTurn || document.hidden });
    if (note) {
      toast(note);
      if (document.hidden) dispatch({ type: "note-kept", note });
    }
    // The turn stays on screen until the history that replaces it is fetched.
    await refresh(true);
    dispatch({ type: "ended", end: "dropped" });
    if (mayResume(session.get())) void attachRef.current();
  }, [session, dispatch, refresh]);

  const onDone = useCallback(async () => {
    const { hiddenDuringTurn, turn } = session.get();
    await refresh(true);
    const note = turnEndToast("done", { hidden: hiddenDuringTurn, failed: Boolean(turn?.run.error) });
    if (note) {
      toast(note);
      if (document.hidden) dispatch({ type: "note-kept", note });
    }
    dispatch({ type: "ended", end: "done" });
  }, [session, dispatch, refresh]);

  /** Follows a run's event stream into the turn until it ends, then settles the turn. */
  const follow = useCallback(
    async (res: Response) => {
      const end = await followRun(res, {
        signal: life.current.signal,
        onEvent: (event) => {
          if (event.type === "error") toast(chatToasts.streamError(event.message));
          dispatch({ type: "event", event });
        },
      });
      if (end === "abandoned") return dispatch({ type: "ended", end: "abandoned" });
      if (end === "no-body") {
        toast(chatToasts.noBody());
        await refresh(true);
        // Nothing to follow: the send failed as surely as a refused one.
        return dispatch({ type: "ended", end: "refused" });
      }
      await (end === "done" ? onDone() : onDropped());
    },
    [dispatch, refresh, onDone, onDropped],
  );

  const send = useCallback(
    async ({ text, attachments, enableReasoning, mode, elements }: SendInput): Promise<SendOutcome> => {
      const content = messageContent(text, attachments.length);
      if (busy() || content === null) return "blocked";
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
      dispatch({ type: "sent", user, baseline: settledMessages(history).length, hidden: document.hidden });

      // This mount's signal, kept: if the chat unmounts and mounts again mid-send (React's StrictMode does that
      // in development), `life.current` is already the new mount's by the time the request fails.
      const signal = life.current.signal;
      let res: Response;
      try {
        res = await api.messages.stream(
          {
            projectId,
            content,
            ...(attachments.length ? { attachments } : {}),
            enableReasoning,
            ...(mode === "plan" ? { mode } : {}),
            ...(elements?.length ? { elements } : {}),
          },
          { signal },
        );
      } catch (err) {
        if (signal.aborted) {
          dispatch({ type: "ended", end: "abandoned" });
          return "abandoned";
        }
        if (err instanceof ApiError) {
          toast(refusedToast(err));
          if (err.code === "budget_exhausted") void queryClient.invalidateQueries({ queryKey: usageKeys.all });
          dispatch({ type: "ended", end: "refused" });
          return "refused";
        }
        // The request never got an answer: the run may or may not have started.
        await onDropped();
        return "refused";
      }
      dispatch({ type: "opened" });
      await follow(res);
      return "sent";
    },
    [queryClient, projectId, busy, dispatch, onDropped, follow],
  );

  /**
   * Reattaches to the project's active run, if any (the page opened mid-run, or the connection dropped), or
   * follows one another member just started (`by`, their name: their message is read from the history).
   */
  const attach = useCallback(
    async (by?: string) => {
      if (busy()) return;
      const res = await openActiveRun(projectId, life.current.signal);
      if (!res) return;
      if (busy()) return letGo(res);
      dispatch({ type: "attached", hidden: document.hidden, ...(by ? { by } : {}) });
      if (by) void queryClient.invalidateQueries({ queryKey: messageKeys.list(projectId) });
      await follow(res);
    },
    [projectId, busy, dispatch, follow, queryClient],
  );
  attachRef.current = () => attach();

  // Another member's message started a run: this chat follows it live too (my own run is followed already).
  useTeamEvents(projectId, (event) => {
    if (event.type === RUN_STARTED && event.userId !== user?.uid) void attach(event.by);
  });

  const stop = useCallback(async () => {
    if (!busy()) return;
    dispatch({ type: "stop-asked" });
    try {
      const res = await api.messages.stop(projectId);
      // When it stopped, the stream ends with done { status: "stopped" }, the partial answer kept. When
      // there was nothing to stop yet (the run had not started), the button comes back.
      if (!res.stopped) dispatch({ type: "stop-refused" });
    } catch (err) {
      dispatch({ type: "stop-refused" });
      toast(chatToasts.stopFailed(describeError(err)));
    }
  }, [projectId, busy, dispatch]);

  useEffect(() => {
    const controller = new AbortController();
    life.current = controller;
    void attach();
    return () => controller.abort();
  }, [attach]);

  useEffect(() => {
    const onVisibility = () => {
      if (document.hidden) return dispatch({ type: "tab-hidden" });
      void refresh();
      const note = session.get().backgroundNote;
      dispatch({ type: "note-shown" });
      if (note) toast(note);
    };
    document.addEventListener("visibilitychange", onVisibility);
    return () => document.removeEventListener("visibilitychange", onVisibility);
  }, [session, dispatch, refresh]);

  return { pending: state.turn, sending: state.phase !== "idle", stopping: state.stopping, runBy: state.turn?.by ?? null, send, stop };
}
