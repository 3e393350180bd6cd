/**
 * The message input: Enter sends, Shift+Enter breaks the line, the box grows up to 128 px; the
 * image-add tile and attached images; chips of elements picked in the preview; the Build / Plan switch; the reasoning switch; the model picker (when the server offers more
 * than one); Send, or Stop while a run is going. While
 * images upload, sending waits and 'Uploading images...' shows.
 */
import type { ChatMode } from "@shared/events/stream";
import type { SelectedElement } from "@shared/schemas/selected-element";
import { type ClipboardEvent, type KeyboardEvent, useLayoutEffect, useRef } from "react";
import { Spinner } from "../../../components/ui/spinner";
import { cn } from "../../../lib/cn";
import type { Attachment } from "../use-image-attachments";
import { AttachmentThumbs, FailedUploadsNote, ImageAddTile } from "./attachment-tray";
import { ElementChips } from "./element-chips";
import { SendIcon, StopIcon } from "./icons";
import { ModeSwitch } from "./mode-switch";
import { ModelPicker } from "./model-picker";
import { ReasoningToggle } from "./reasoning-toggle";

export const INPUT_MAX_HEIGHT_PX = 128;

export type ChatComposerProps = {
  draft: string;
  onDraftChange: (text: string) => void;
  attachments: Attachment[];
  uploading: boolean;
  /** Images whose upload failed (they left the tray); a note says so until dismissed. */
  failedUploads: number;
  onDismissFailedUploads: () => void;
  onAddImages: (files: Iterable<File>) => void;
  onRemoveImage: (id: string) => void;
  /** Elements picked in the preview (Select to edit), sent with the message. */
  elements?: readonly SelectedElement[];
  onRemoveElement?: (index: number) => void;
  reasoning: boolean;
  onReasoningChange: (on: boolean) => void;
  /** Build (the agent changes the project) or Plan (it only reads and answers with a plan). */
  mode: ChatMode;
  onModeChange: (mode: ChatMode) => void;
  /** The project's model and the server's choices (MODELS); no picker with fewer than two. */
  model?: string;
  models?: string[];
  onModelChange?: (model: string) => void;
  sending: boolean;
  stopping: boolean;
  canSend: boolean;
  /** The draft is over the length limit: this says so (and Send is off). */
  tooLong?: string | null;
  onSend: () => void;
  onStop: () => void;
};

export function ChatComposer(props: ChatComposerProps) {
  const { draft, attachments, uploading, sending, stopping, canSend } = props;
  const textarea = useRef<HTMLTextAreaElement>(null);
  const fileInput = useRef<HTMLInputElement>(null);

  useLayoutEffect(() => {
    const el = textarea.current;
    if (!el) return;
    el.style.height = "auto";
    el.style.height = `${Math.min(el.scrollHeight, INPUT_MAX_HEIGHT_PX)}px`;
    el.style.overflowY = el.scrollHeight > INPUT_MAX_HEIGHT_PX ? "auto" : "hidden";
  }, [draft]);

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key !== "Enter" || e.shiftKey || e.nativeEvent.isComposing) return;
    e.preventDefault();
    props.onSend();
  };

  const onPaste = (e: ClipboardEvent<HTMLTextAreaElement>) => {
    const images = [...e.clipboardData.files].filter((f) => f.type.startsWith("image/"));
    if (!images.length) return;
    e.preventDefault();
    props.onAddImages(images);
  };

  const tile = (className: string) => <ImageAddTile count={attachments.length} inputRef={fileInput} onFiles={props.onAddImages} className={className} />;

  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        props.onSend();
      }}
      className="rounded-2xl border bg-card shadow-sm focus-within:ring-2 focus-within:ring-ring/60"
      data-testid="chat-composer"
    >
      {attachments.length > 0 && (
        <div className="flex gap-2 overflow-x-auto px-3 pt-3" data-testid="attachment-tray">
          <AttachmentThumbs attachments={attachments} onRemove={props.onRemoveImage} />
          {tile("size-14")}
        </div>
      )}
      <ElementChips elements={props.elements ?? []} onRemove={(i) => props.onRemoveElement?.(i)} />
      {props.failedUploads > 0 && <FailedUploadsNote count={props.failedUploads} onDismiss={props.onDismissFailedUploads} />}
      <label htmlFor="chat-input" className="sr-only">
        Message
      </label>
      <textarea
        id="chat-input"
        ref={textarea}
        rows={1}
        value={draft}
        onChange={(e) => props.onDraftChange(e.target.value)}
        onKeyDown={onKeyDown}
        onPaste={onPaste}
        placeholder={props.mode === "plan" ? "Describe what you want planned..." : "Describe what you want to build..."}
        data-testid="chat-input"
        style={{ maxHeight: INPUT_MAX_HEIGHT_PX }}
        className="block w-full resize-none bg-transparent px-4 pt-3 pb-2 text-sm leading-6 placeholder:text-muted-foreground focus:outline-none"
      />
      <div className="flex items-center gap-3 px-3 pb-3">
        {attachments.length === 0 && tile("size-8")}
        <ModeSwitch mode={props.mode} onChange={props.onModeChange} disabled={sending} />
        <ReasoningToggle checked={props.reasoning} onChange={props.onReasoningChange} disabled={sending} />
        <ModelPicker model={props.model} models={props.models ?? []} onChange={(m) => props.onModelChange?.(m)} disabled={sending} />
        {uploading && (
          <span className="flex items-center gap-1.5 text-xs text-muted-foreground" data-testid="uploading-hint">
            <Spinner className="size-3 border-[1.5px]" />
            Uploading images...
          </span>
        )}
        <div className="ml-auto flex items-center gap-2">
          {sending ? (
            <button
              type="button"
              onClick={props.onStop}
              disabled={stopping}
              data-testid="stop-button"
              className={cn(
                "inline-flex h-8 items-center gap-1.5 rounded-full border px-3 text-xs font-medium transition-colors",
                "hover:bg-muted focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring disabled:opacity-50",
              )}
            >
              {stopping ? <Spinner className="size-3 border-[1.5px]" /> : <StopIcon className="size-3" />}
              {stopping ? "Stopping..." : "Stop"}
            </button>
          ) : null}
          {(!sending || canSend) && (
            <button
              type="submit"
              disabled={!canSend}
              aria-label={sending ? "Queue message" : "Send message"}
              title={sending ? "Queue: sent when the agent finishes" : undefined}
              data-testid={sending ? "queue-button" : "send-button"}
              className={cn(
                "inline-flex size-8 items-center justify-center rounded-full bg-primary text-primary-foreground transition-colors",
                "hover:bg-primary/90 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 focus-visible:ring-offset-background",
                "disabled:pointer-events-none disabled:opacity-40",
              )}
            >
              <SendIcon className="size-4" />
            </button>
          )}
        </div>
      </div>
      {props.tooLong && (
        <p role="alert" data-testid="too-long" className="mx-3 mb-3 rounded-md bg-destructive/10 px-2.5 py-1.5 text-xs text-destructive">
          {props.tooLong}
        </p>
      )}
    </form>
  );
}
