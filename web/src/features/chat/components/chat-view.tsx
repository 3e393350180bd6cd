/**
 * The Agent Chat screen's body: the history (with the turn in flight merged in), kept scrolled to the end
 * while the reader is there, and the composer pinned to the bottom of the viewport (above the mobile bar).
 */
import type { Message } from "@shared/schemas/message";
import { MAX_MESSAGE_CHARS, tooLongMessage } from "@shared/constants";
import type { ChatMode } from "@shared/events/stream";
import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import { describeError } from "../../../api/api-error";
import { messageKeys } from "../../../api/query-keys";
import { Button } from "../../../components/ui/button";
import { Spinner } from "../../../components/ui/spinner";
import type { LiveRun } from "../live-run";
import { messageContent, visibleHistory } from "../pending-turn";
import { buildRequest, markPlanAnswer, usePlanAnswers } from "../plan-answers";
import { useChatOutbox } from "../use-chat-outbox";
import { useChatSession } from "../use-chat-session";
import { useImageAttachments } from "../use-image-attachments";
import { type QueuedMessage, useQueuedMessages } from "../use-queued-messages";
import { useMessages } from "../use-messages";
import { useModelChoice } from "../use-model-choice";
import { useTokenMeters } from "../use-token-meters";
import { answersWithVersions } from "../../history/run-versions";
import { useVersions } from "../../history/use-versions";
import { requestPreviewReload } from "../../preview/preview-reload";
import { removeSelectedElement, restoreSelectedElements, takeSelectedElements, useSelectedElements } from "../../preview/selected-elements";
import { ChatComposer } from "./chat-composer";
import { ChatEmptyState } from "./chat-empty-state";
import { QueuedMessages } from "./queued-messages";
import { ContextMeter } from "./context-meter";
import { MessageItem } from "./message-item";
import { SecretRequestForm } from "./secret-request-form";
import { useProjectRole } from "../../team/use-project-role";
import { ViewOnlyComposer } from "./view-only-composer";

function liveMessage(projectId: string, run: LiveRun): Message {
  return {
    id: run.messageId ?? "live",
    projectId,
    role: "assistant",
    content: run.content,
    thinking: run.thinking || null,
    attachments: [],
    toolCalls: run.toolCalls,
    actions: run.actions,
    createdAt: "",
    status: run.status === "streaming" ? "running" : run.status,
    usage: run.usage,
  };
}

export function ChatView({ projectId }: { projectId: string }) {
  const history = useMessages(projectId);
  const versions = useVersions(projectId);
  const undoable = useMemo(() => answersWithVersions(versions.data), [versions.data]);
  const chat = useChatSession(projectId);
  const { canEdit } = useProjectRole(projectId);
  const images = useImageAttachments(projectId);
  const modelChoice = useModelChoice(projectId);
  const meters = useTokenMeters(projectId);
  const [draft, setDraft] = useState("");
  const [reasoning, setReasoning] = useState(false);
  const [mode, setMode] = useState<ChatMode>("build");
  const plans = usePlanAnswers(projectId);
  const elements = useSelectedElements(projectId);
  const queryClient = useQueryClient();
  // "Fix with AI" (Preview, Publish) sends its message here through the chat outbox; it is sent as if typed.
  useChatOutbox(projectId, chat, reasoning);
  const end = useRef<HTMLDivElement>(null);
  const stuckToEnd = useRef(true);

  // A run that ended may have changed files a dev server does not hot-reload (a static page, say): the
  // preview beside the chat loads the page again.
  const hadRun = useRef(false);
  useEffect(() => {
    if (chat.pending) hadRun.current = true;
    else if (hadRun.current) {
      hadRun.current = false;
      requestPreviewReload(projectId);
    }
  }, [chat.pending, projectId]);

  const { messages, showPendingUser } = useMemo(() => visibleHistory(history.data ?? [], chat.pending), [history.data, chat.pending]);
  const live = chat.pending ? liveMessage(projectId, chat.pending.run) : null;
  const tooLong = draft.length > MAX_MESSAGE_CHARS;
  // While a run goes, a message is queued (shown above the composer) and sent when the run ends.
  const canSend = !images.uploading && !tooLong && messageContent(draft, images.uploadedUrls.length) !== null;
  const putBack = useCallback(
    (m: QueuedMessage) => {
      setDraft((current) => current || m.text);
      images.restore(m.attachments);
      restoreSelectedElements(projectId, m.elements ?? []);
    },
    [images, projectId],
  );
  const queued = useQueuedMessages(chat, putBack);

  const submit = useCallback(async () => {
    // A send waits until every image is uploaded; during a run it is queued, one turn at a time.
    if (images.uploading || tooLong) return;
    const text = draft;
    const urls = images.uploadedUrls;
    if (messageContent(text, urls.length) === null) return;
    setDraft("");
    images.clear();
    const picked = takeSelectedElements(projectId);
    stuckToEnd.current = true;
    if (chat.sending) {
      queued.add({ text, attachments: urls, enableReasoning: reasoning, mode, elements: picked });
      return;
    }
    const outcome = await chat.send({ text, attachments: urls, enableReasoning: reasoning, mode, elements: picked });
    if (outcome === "refused") {
      setDraft((current) => current || text);
      images.restore(urls);
      restoreSelectedElements(projectId, picked);
    }
    if (outcome === "sent" && mode === "plan") {
      // The history was refetched when the turn ended: its last answer is the plan.
      const answer = queryClient.getQueryData<Message[]>(messageKeys.list(projectId))?.findLast((m) => m.role === "assistant");
      if (answer) markPlanAnswer(projectId, answer.id);
    }
  }, [chat, images, draft, reasoning, mode, queryClient, projectId, tooLong, queued]);

  /** "Build this": the plan goes to Build mode as the next message. */
  const buildPlan = useCallback(
    (plan: string) => {
      setMode("build");
      stuckToEnd.current = true;
      void chat.send({ text: buildRequest(plan), attachments: [], enableReasoning: reasoning, mode: "build" });
    },
    [chat, reasoning],
  );

  // Follow the end of the conversation while the reader is there; leave them be once they scroll up.
  useEffect(() => {
    const target = end.current;
    if (!target) return;
    const observer = new IntersectionObserver(([entry]) => (stuckToEnd.current = entry?.isIntersecting ?? false), { rootMargin: "0px 0px 160px 0px" });
    observer.observe(target);
    return () => observer.disconnect();
  }, []);
  const scrollKey = `${messages.length}:${showPendingUser}:${live?.content.length ?? -1}:${live?.toolCalls.length ?? 0}:${live?.thinking?.length ?? 0}`;
  useLayoutEffect(() => {
    if (stuckToEnd.current) end.current?.scrollIntoView({ block: "end" });
  }, [scrollKey]);

  const empty = !history.isPending && messages.length === 0 && !chat.pending;

  return (
    <div className="flex flex-1 flex-col" data-testid="chat-page">
      <h1 className="sr-only">Agent Chat</h1>
      <div className="mx-auto flex w-full max-w-3xl flex-1 flex-col px-4 pt-6 md:px-6" data-testid="message-list">
        {history.isPending ? (
          <div className="flex flex-1 items-center justify-center text-muted-foreground">
            <Spinner className="size-8" />
          </div>
        ) : history.isError && !history.data ? (
          <div role="alert" className="m-auto max-w-md rounded-lg border border-destructive/50 p-6 text-sm">
            <p className="font-medium">Could not load the conversation.</p>
            <p className="mt-1 text-muted-foreground">{describeError(history.error)}</p>
            <Button variant="outline" size="sm" className="mt-4" onClick={() => history.refetch()}>
              Try again
            </Button>
          </div>
        ) : empty ? (
          <ChatEmptyState onPick={setDraft} />
        ) : (
          <div className="space-y-6 pb-6">
            {messages.map((m) => (
              <MessageItem
                key={m.id}
                message={m}
                restoreIn={canEdit ? projectId : undefined}
                undoable={canEdit && undoable.has(m.id)}
                onBuildPlan={plans.has(m.id) && m.status !== "failed" && !chat.sending ? buildPlan : undefined}
              />
            ))}
            {showPendingUser && chat.pending?.user && <MessageItem message={chat.pending.user} />}
            {live && <MessageItem message={live} live />}
            {chat.pending?.run.queued ? (
              <p role="status" className="text-sm text-muted-foreground">
                Queued for the model: {chat.pending.run.queued === 1 ? "next in line" : `number ${chat.pending.run.queued} in line`}. The answer starts when the
                model is free.
              </p>
            ) : null}
            {chat.pending?.run.secretRequest && (
              <SecretRequestForm key={chat.pending.run.secretRequest.name} projectId={projectId} {...chat.pending.run.secretRequest} />
            )}
          </div>
        )}
      </div>
      <div className="sticky bottom-[calc(4rem+env(safe-area-inset-bottom))] z-10 bg-gradient-to-t from-background from-70% to-transparent pt-4 pb-3 md:bottom-0 md:pb-4">
        <div className="mx-auto w-full max-w-3xl px-3 md:px-6">
          <QueuedMessages queue={queued.queue} onCancel={queued.cancel} />
          {chat.runBy && (
            <p className="mb-2 px-1 text-xs text-muted-foreground" role="status" data-testid="run-by">
              {chat.runBy} sent this message; the agent is answering them.
            </p>
          )}
          {!canEdit ? (
            <ViewOnlyComposer />
          ) : (
            <ChatComposer
              draft={draft}
              onDraftChange={setDraft}
              attachments={images.attachments}
              uploading={images.uploading}
              failedUploads={images.failed}
              onDismissFailedUploads={images.dismissFailed}
              onAddImages={images.add}
              onRemoveImage={images.remove}
              elements={elements}
              onRemoveElement={(i) => removeSelectedElement(projectId, i)}
              reasoning={reasoning}
              onReasoningChange={setReasoning}
              mode={mode}
              onModeChange={setMode}
              model={modelChoice.model}
              models={modelChoice.models}
              onModelChange={modelChoice.choose}
              sending={chat.sending}
              stopping={chat.stopping}
              canSend={canSend}
              tooLong={tooLong ? tooLongMessage(draft.length) : null}
              onSend={submit}
              onStop={chat.stop}
            />
          )}
          <ContextMeter context={meters.context} budget={meters.budget} />
        </div>
      </div>
      <div ref={end} aria-hidden />
    </div>
  );
}
