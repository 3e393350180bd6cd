/**
 * A panel that slides in from a screen edge over a dimmed backdrop (headlessui Dialog): focus is trapped
 * inside, Escape or a click outside closes it, and the title labels it for screen readers.
 *
 * @example
 * <Sheet open={open} onClose={() => setOpen(false)} side="right" title="Menu">…links…</Sheet>
 */
import { Dialog, DialogBackdrop, DialogPanel, DialogTitle, Transition } from "@headlessui/react";
import type { ReactNode } from "react";
import { cn } from "../../lib/cn";
import { CloseIcon } from "./icons";

type SheetProps = {
  open: boolean;
  onClose: () => void;
  side?: "left" | "right";
  title: string;
  /** Keep the title for assistive technology only (the panel shows its own heading). */
  hideTitle?: boolean;
  /** Runs once the closing animation has finished and the page is scrollable again. */
  afterLeave?: () => void;
  className?: string;
  children: ReactNode;
};

export function Sheet({ open, onClose, side = "left", title, hideTitle, afterLeave, className, children }: SheetProps) {
  return (
    <Transition show={open} afterLeave={afterLeave}>
      <Dialog onClose={onClose} className="relative z-50">
        <DialogBackdrop transition className="fixed inset-0 bg-black/60 transition-opacity duration-200 ease-out data-closed:opacity-0" />
        <DialogPanel
          transition
          className={cn(
            "fixed inset-y-0 flex w-72 max-w-[85vw] flex-col border-border bg-card shadow-xl transition-transform duration-200 ease-out",
            side === "left" ? "left-0 border-r data-closed:-translate-x-full" : "right-0 border-l data-closed:translate-x-full",
            className,
          )}
        >
          <div className={cn("flex h-14 shrink-0 items-center px-4", hideTitle ? "justify-end" : "justify-between")}>
            <DialogTitle className={cn("font-semibold", hideTitle && "sr-only")}>{title}</DialogTitle>
            <button
              type="button"
              onClick={onClose}
              aria-label="Close"
              className="inline-flex size-9 items-center justify-center rounded-md hover:bg-muted focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
            >
              <CloseIcon className="size-5" />
            </button>
          </div>
          {children}
        </DialogPanel>
      </Dialog>
    </Transition>
  );
}
