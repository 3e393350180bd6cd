/** The images waiting to be sent, and the image-add tile: hidden once 5 are attached. */
import type { RefObject } from "react";
import { Spinner } from "../../../components/ui/spinner";
import { cn } from "../../../lib/cn";
import { type Attachment, MAX_IMAGES_PER_MESSAGE } from "../use-image-attachments";
import { ImagePlusIcon, XIcon } from "./icons";

export function AttachmentThumbs({ attachments, onRemove }: { attachments: Attachment[]; onRemove: (id: string) => void }) {
  return (
    <>
      {attachments.map((a) => (
        <div key={a.id} data-testid="attachment" data-status={a.status} className="relative size-14 shrink-0 overflow-hidden rounded-lg border bg-muted">
          <img src={a.previewUrl} alt="Attached image" className="size-full object-cover" />
          {a.status === "uploading" && (
            <div className="absolute inset-0 flex items-center justify-center bg-background/60">
              <Spinner className="size-4" />
            </div>
          )}
          <button
            type="button"
            onClick={() => onRemove(a.id)}
            aria-label="Remove image"
            className="absolute top-0.5 right-0.5 inline-flex size-5 items-center justify-center rounded-full bg-background/90 text-foreground shadow hover:bg-background focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
          >
            <XIcon className="size-3" />
          </button>
        </div>
      ))}
    </>
  );
}

/** Says that images were dropped because their upload failed; the message goes without them. */
export function FailedUploadsNote({ count, onDismiss }: { count: number; onDismiss: () => void }) {
  return (
    <p
      role="status"
      data-testid="upload-failed-note"
      className="mx-3 mt-3 flex items-center gap-2 rounded-md bg-destructive/10 px-2.5 py-1.5 text-xs text-destructive"
    >
      <span className="min-w-0 flex-1">
        {count === 1 ? "1 image could not be uploaded" : `${count} images could not be uploaded`} and will not be sent. Try adding {count === 1 ? "it" : "them"}{" "}
        again.
      </span>
      <button
        type="button"
        onClick={onDismiss}
        aria-label="Dismiss"
        className="inline-flex size-5 shrink-0 items-center justify-center rounded-full hover:bg-destructive/15 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
      >
        <XIcon className="size-3" />
      </button>
    </p>
  );
}

/** The tile that opens the file picker; not rendered at the limit. */
export function ImageAddTile({
  count,
  inputRef,
  onFiles,
  disabled,
  className,
}: {
  count: number;
  inputRef: RefObject<HTMLInputElement | null>;
  onFiles: (files: FileList) => void;
  disabled?: boolean;
  className?: string;
}) {
  if (count >= MAX_IMAGES_PER_MESSAGE) return null;
  return (
    <>
      <button
        type="button"
        onClick={() => inputRef.current?.click()}
        disabled={disabled}
        aria-label="Add image"
        title={`Add images (${count}/${MAX_IMAGES_PER_MESSAGE})`}
        data-testid="image-add-tile"
        className={cn(
          "inline-flex shrink-0 items-center justify-center rounded-lg border border-dashed text-muted-foreground transition-colors",
          "hover:border-foreground/40 hover:text-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring disabled:opacity-50",
          className,
        )}
      >
        <ImagePlusIcon className="size-4" />
      </button>
      <input
        ref={inputRef}
        type="file"
        accept="image/*"
        multiple
        hidden
        data-testid="image-input"
        onChange={(e) => {
          if (e.target.files?.length) onFiles(e.target.files);
          e.target.value = "";
        }}
      />
    </>
  );
}
