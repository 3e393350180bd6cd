/**
 * One chat message: who wrote it, attached images, and for the assistant the 'Extended Thinking'
 * section, the answer as Markdown with its steps, the tool badges, a copy button and the token usage.
 */
import type { Message } from "@shared/schemas/message";
import { initials } from "@shared/events/team-events";
import { memo, useMemo } from "react";
import { Button } from "../../../components/ui/button";
import { Spinner } from "../../../components/ui/spinner";
import { cn } from "../../../lib/cn";
import { useAuth } from "../../auth/use-auth";
import { MessageRestoreAction } from "../../history/components/message-restore-action";
import { AssistantContent } from "./assistant-content";
import { CopyButton } from "./copy-button";
import { BotIcon, InfoIcon, UserIcon } from "./icons";
import { ThinkingSection } from "./thinking-section";
import { ToolBadges } from "./tool-badges";
import { commandLinesShownByBadges } from "../step-lines";
import { usageLine } from "../usage-format";

const STATUS_LABEL: Partial<Record<NonNullable<Message["status"]>, string>> = {
  stopped: "Stopped",
  failed: "Failed",
  running: "In progress",
};

export const MessageItem = memo(function MessageItem({
  message,
  live = false,
  restoreIn,
  undoable = false,
  onBuildPlan,
}: {
  message: Message;
  live?: boolean;
  /** For a saved message, its project: the message offers a way back to the files before it. */
  restoreIn?: string;
  /** The answer's run changed files: it offers "Undo this run". */
  undoable?: boolean;
  /** The answer is a plan (asked in Plan mode): "Build this" sends it to Build mode. */
  onBuildPlan?: (plan: string) => void;
}) {
  return message.role === "user" ? (
    <UserMessage message={message} projectId={restoreIn} />
  ) : (
    <AssistantMessage message={message} live={live} undoIn={undoable ? restoreIn : undefined} onBuildPlan={onBuildPlan} />
  );
});

function UserMessage({ message, projectId }: { message: Message; projectId?: string }) {
  const { user } = useAuth();
  // Another member's message (a shared project's chat) names them; mine, or one whose sender is unknown, says "You".
  const other = message.sender && message.sender.id !== user?.uid ? message.sender : null;
  return (
    <article data-testid="message" data-role="user" aria-label={other ? other.name : "You"} className="group flex flex-col items-end gap-1.5">
      {other ? <SenderLabel sender={other} /> : <RoleLabel role="user" />}
      <Attachments urls={message.attachments} />
      {message.content && (
        <div className="flex max-w-[85%] items-end gap-1">
          <CopyButton text={message.content} label="Copy message" className="shrink-0 md:opacity-0 md:group-hover:opacity-100 md:focus-visible:opacity-100" />
          <div className="min-w-0 rounded-2xl rounded-tr-sm bg-primary px-4 py-2.5 text-sm leading-relaxed whitespace-pre-wrap break-words text-primary-foreground">
            {message.content}
          </div>
        </div>
      )}
      {projectId && <MessageRestoreAction projectId={projectId} messageId={message.id} kind="user" />}
    </article>
  );
}

function AssistantMessage({ message, live, undoIn, onBuildPlan }: { message: Message; live: boolean; undoIn?: string; onBuildPlan?: (plan: string) => void }) {
  const streaming = live && message.status === "running";
  const steps = useMemo(() => ({ actions: message.actions, hidden: commandLinesShownByBadges(message.toolCalls) }), [message.actions, message.toolCalls]);
  const statusLabel = message.status && !streaming ? STATUS_LABEL[message.status] : undefined;
  return (
    <article data-testid="message" data-role="assistant" data-status={message.status ?? "complete"} aria-label="Agent" className="group flex flex-col gap-2">
      <div className="flex items-center gap-2">
        <RoleLabel role="assistant" />
        {statusLabel && (
          <span
            data-testid="message-status"
            className={cn(
              "rounded-full px-2 py-0.5 text-[11px] font-medium",
              message.status === "failed" ? "bg-destructive/15 text-destructive" : "bg-muted text-muted-foreground",
            )}
          >
            {statusLabel}
          </span>
        )}
      </div>
      <div className="min-w-0 space-y-3 pl-8">
        {message.thinking && <ThinkingSection thinking={message.thinking} live={streaming && !message.content} />}
        {message.content && <AssistantContent content={message.content} steps={steps} streaming={streaming} />}
        {streaming && !message.content && (
          <div className="flex items-center gap-2 text-sm text-muted-foreground" data-testid="ai-thinking">
            <Spinner className="size-4" />
            AI is thinking...
          </div>
        )}
        <ToolBadges calls={message.toolCalls} projectId={message.projectId || undefined} />
        {onBuildPlan && message.content && !streaming && (
          <Button size="sm" data-testid="build-plan" onClick={() => onBuildPlan(message.content)}>
            Build this
          </Button>
        )}
        {!streaming && (message.content || message.usage || undoIn) && (
          <div className="flex items-center gap-2 text-xs text-muted-foreground">
            {message.content && <CopyButton text={message.content} label="Copy message" />}
            {message.usage && <UsageDetails usage={message.usage} />}
            {undoIn && <MessageRestoreAction projectId={undoIn} messageId={message.id} kind="run" />}
          </div>
        )}
      </div>
    </article>
  );
}

function RoleLabel({ role }: { role: Message["role"] }) {
  const user = role === "user";
  return (
    <div className={cn("flex items-center gap-2 text-xs font-medium text-muted-foreground", user && "flex-row-reverse")}>
      <span className={cn("inline-flex size-6 items-center justify-center rounded-full", user ? "bg-muted" : "bg-primary text-primary-foreground")}>
        {user ? <UserIcon className="size-3.5" /> : <BotIcon className="size-3.5" />}
      </span>
      <span data-testid="message-role">{user ? "You" : "Agent"}</span>
    </div>
  );
}

/** Another member's name and photo (or initials) above their message. */
function SenderLabel({ sender }: { sender: NonNullable<Message["sender"]> }) {
  return (
    <div className="flex flex-row-reverse items-center gap-2 text-xs font-medium text-muted-foreground" data-testid="message-sender">
      <span className="inline-flex size-6 items-center justify-center overflow-hidden rounded-full bg-primary/15 text-[10px] font-semibold text-primary">
        {sender.picture ? <img src={sender.picture} alt="" className="size-full object-cover" referrerPolicy="no-referrer" /> : initials(sender.name)}
      </span>
      <span data-testid="message-role">{sender.name}</span>
    </div>
  );
}

function Attachments({ urls }: { urls: string[] }) {
  if (!urls.length) return null;
  return (
    <div className="flex max-w-[85%] flex-wrap justify-end gap-2">
      {urls.map((url) => (
        <a key={url} href={url} target="_blank" rel="noopener noreferrer" className="block overflow-hidden rounded-lg border">
          <img src={url} alt="Attached image" loading="lazy" data-testid="message-image" className="size-24 object-cover sm:size-32" />
        </a>
      ))}
    </div>
  );
}

/** The run's tokens (and cost) behind a details button: shown on hover or focus, out of the reading's way. */
function UsageDetails({ usage }: { usage: NonNullable<Message["usage"]> }) {
  return (
    <span className="group/usage relative inline-flex">
      <button
        type="button"
        aria-label="Details"
        data-testid="usage-details"
        className="inline-flex size-6 items-center justify-center rounded-md hover:bg-muted hover:text-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
      >
        <InfoIcon className="size-3.5" />
      </button>
      <span
        role="tooltip"
        className="invisible absolute bottom-full left-0 z-20 mb-1 rounded-md border bg-card px-2.5 py-1.5 whitespace-nowrap text-foreground shadow-md group-focus-within/usage:visible group-hover/usage:visible"
      >
        <TokenUsage usage={usage} />
      </span>
    </span>
  );
}

/** Tokens in/out (≈ when counted here because the endpoint reported none) and the cost when priced. */
function TokenUsage({ usage }: { usage: NonNullable<Message["usage"]> }) {
  const line = usageLine(usage);
  const model = usage.model ? ` by ${usage.model}` : "";
  return (
    <span
      data-testid="token-usage"
      title={`${usage.estimated ? "Estimated: the model endpoint reported no usage. " : ""}${usage.promptTokens.toLocaleString("en")} prompt + ${usage.completionTokens.toLocaleString("en")} completion tokens${model}`}
      className="tabular-nums"
    >
      {line.tokens} <span className="opacity-80">({line.detail})</span>
      {line.cost && (
        <>
          {" · "}
          <span data-testid="token-cost">{line.cost}</span>
        </>
      )}
    </span>
  );
}
