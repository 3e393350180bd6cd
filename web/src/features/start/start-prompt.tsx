/**
 * "What do you want to build?": a prompt box with the suggestion chips and images, on the landing page and
 * the empty project list. Submitting hands the prompt and the image files to `onStart` (which signs in
 * first, or creates the project and starts its run); the box keeps them until that succeeds.
 */
import { MAX_IMAGES_PER_MESSAGE } from "@shared/constants";
import { type FormEvent, type KeyboardEvent, useEffect, useRef, useState } from "react";
import { Spinner } from "../../components/ui/spinner";
import { cn } from "../../lib/cn";
import { AttachmentThumbs, ImageAddTile } from "../chat/components/attachment-tray";
import { SendIcon } from "../chat/components/icons";
import type { PendingStart } from "./pending-start";
import { SUGGESTIONS } from "./suggestions";

type Picked = { id: string; file: File; previewUrl: string };

/** `initial`: a start that could not be made (its prompt and images come back to the box). */
export function StartPrompt({
  onStart,
  busy,
  initial,
  className,
}: {
  onStart: (start: PendingStart) => Promise<boolean>;
  busy: boolean;
  initial?: PendingStart | null;
  className?: string;
}) {
  const urls = useRef(new Set<string>());
  const [prompt, setPrompt] = useState(initial?.prompt ?? "");
  const [images, setImages] = useState<Picked[]>(() => (initial?.images ?? []).map((file) => pick(file, urls.current)));
  const fileInput = useRef<HTMLInputElement>(null);
  useEffect(() => {
    const all = urls.current;
    return () => all.forEach((url) => URL.revokeObjectURL(url));
  }, []);

  const add = (files: Iterable<File>) => {
    const picked = [...files].filter((f) => f.type.startsWith("image/")).map((file) => pick(file, urls.current));
    setImages((list) => [...list, ...picked].slice(0, MAX_IMAGES_PER_MESSAGE));
  };
  const remove = (id: string) => setImages((list) => list.filter((i) => i.id !== id));
  const canStart = prompt.trim().length > 0 && !busy;

  const submit = async (e?: FormEvent) => {
    e?.preventDefault();
    if (!canStart) return;
    const started = await onStart({ prompt: prompt.trim(), images: images.map((i) => i.file) });
    if (started) {
      setPrompt("");
      setImages([]);
    }
  };
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key !== "Enter" || e.shiftKey || e.nativeEvent.isComposing) return;
    e.preventDefault();
    void submit();
  };

  return (
    <div className={cn("mx-auto w-full max-w-2xl text-left", className)} data-testid="start-prompt">
      <form
        onSubmit={submit}
        onPaste={(e) => {
          const pasted = [...e.clipboardData.files].filter((f) => f.type.startsWith("image/"));
          if (!pasted.length) return;
          e.preventDefault();
          add(pasted);
        }}
        className="rounded-2xl border bg-card shadow-lg shadow-primary/5 focus-within:ring-2 focus-within:ring-ring/60"
      >
        <label htmlFor="start-input" className="sr-only">
          What do you want to build?
        </label>
        <textarea
          id="start-input"
          rows={3}
          value={prompt}
          onChange={(e) => setPrompt(e.target.value)}
          onKeyDown={onKeyDown}
          placeholder="What do you want to build?"
          data-testid="start-input"
          className="block w-full resize-none bg-transparent px-4 pt-4 pb-2 text-base leading-6 placeholder:text-muted-foreground focus:outline-none"
        />
        <div className="flex items-center gap-2 px-3 pb-3">
          {images.length > 0 && (
            <div className="flex gap-2 overflow-x-auto" data-testid="start-images">
              <AttachmentThumbs attachments={images.map((i) => ({ id: i.id, previewUrl: i.previewUrl, status: "uploaded", url: null }))} onRemove={remove} />
            </div>
          )}
          <ImageAddTile count={images.length} inputRef={fileInput} onFiles={add} className="size-8" />
          <button
            type="submit"
            disabled={!canStart}
            aria-label="Start building"
            data-testid="start-button"
            className={cn(
              "ml-auto inline-flex h-9 items-center gap-2 rounded-full bg-primary px-4 text-sm font-medium text-primary-foreground transition-colors",
              "hover:bg-primary/90 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring disabled:pointer-events-none disabled:opacity-40",
            )}
          >
            {busy ? <Spinner className="size-4 border-2" /> : <SendIcon className="size-4" />}
            {busy ? "Starting..." : "Start"}
          </button>
        </div>
      </form>
      <div className="mt-4 flex flex-wrap justify-center gap-2">
        {SUGGESTIONS.map((s) => (
          <button
            key={s}
            type="button"
            onClick={() => setPrompt(s)}
            data-testid="start-chip"
            className="rounded-full border bg-background/60 px-3 py-1.5 text-xs text-muted-foreground transition-colors hover:bg-muted hover:text-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
          >
            {s}
          </button>
        ))}
      </div>
    </div>
  );
}

function pick(file: File, urls: Set<string>): Picked {
  const previewUrl = URL.createObjectURL(file);
  urls.add(previewUrl);
  return { id: crypto.randomUUID(), file, previewUrl };
}
