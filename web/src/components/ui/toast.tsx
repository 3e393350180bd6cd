/**
 * Renders the toast store. Mount once, near the root. The region is labelled "Notifications (F8)"
 * and F8 moves focus into it; a toast pauses its 5000 ms clock while hovered or focused, closes on Escape or
 * its Close button, and is dismissed by a swipe of at least 50 px to the right.
 */
import { type PointerEvent as ReactPointerEvent, useEffect, useRef, useState } from "react";
import { createPortal } from "react-dom";
import { cn } from "../../lib/cn";
import { CloseIcon } from "./icons";
import { dismissToast, pauseToast, resumeToast, type Toast, useToasts } from "./use-toast";

export const TOAST_HOTKEY = "F8";
export const SWIPE_THRESHOLD_PX = 50;

export function Toaster() {
  const toasts = useToasts().filter((t) => t.open);
  const viewport = useRef<HTMLOListElement>(null);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== TOAST_HOTKEY || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
      event.preventDefault();
      viewport.current?.focus();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);

  // Straight under <body>: an open dialog makes the app's root inert, and a toast it raises (a validation
  // error, say) must still be readable, closable and swipeable.
  return createPortal(
    <div role="region" aria-label={`Notifications (${TOAST_HOTKEY})`} tabIndex={-1} className="pointer-events-none">
      <ol
        ref={viewport}
        tabIndex={-1}
        className="fixed inset-x-0 top-0 z-[100] flex flex-col items-center gap-2 p-4 outline-none sm:inset-x-auto sm:top-auto sm:right-0 sm:bottom-0 sm:items-end"
      >
        {toasts.map((t) => (
          <ToastItem key={t.id} toast={t} />
        ))}
      </ol>
    </div>,
    document.body,
  );
}

function ToastItem({ toast: t }: { toast: Toast }) {
  const destructive = t.variant === "destructive";
  const swipe = useSwipeToDismiss(t.id);

  return (
    <li
      role={destructive ? "alert" : "status"}
      aria-live={destructive ? "assertive" : "polite"}
      aria-atomic
      tabIndex={0}
      data-testid="toast"
      data-variant={t.variant ?? "default"}
      data-swiping={swipe.offset > 0 || undefined}
      onPointerEnter={() => pauseToast(t.id)}
      onPointerLeave={() => !swipe.active && resumeToast(t.id)}
      onFocus={() => pauseToast(t.id)}
      onBlur={(e) => !e.currentTarget.contains(e.relatedTarget) && resumeToast(t.id)}
      onKeyDown={(e) => e.key === "Escape" && dismissToast(t.id)}
      {...swipe.handlers}
      style={swipe.offset ? { transform: `translateX(${swipe.offset}px)`, opacity: 1 - swipe.offset / 200 } : undefined}
      className={cn(
        "pointer-events-auto flex w-full max-w-sm touch-none items-start gap-3 rounded-lg border p-4 shadow-lg select-none",
        "transition-[transform,opacity] duration-200 starting:translate-y-2 starting:opacity-0 data-swiping:transition-none",
        "focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring",
        destructive ? "border-destructive bg-destructive text-destructive-foreground" : "bg-card text-foreground",
      )}
    >
      <div className="min-w-0 flex-1">
        <p className="text-sm font-semibold">{t.title}</p>
        {t.description && <p className="mt-1 text-sm break-words opacity-90">{t.description}</p>}
      </div>
      <button
        type="button"
        aria-label="Close"
        onClick={() => dismissToast(t.id)}
        className="-m-1 rounded p-1 opacity-70 hover:opacity-100 focus-visible:opacity-100 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
      >
        <CloseIcon />
      </button>
    </li>
  );
}

/** Follows a rightward drag; past the threshold on release the toast is dismissed, otherwise it springs back. */
function useSwipeToDismiss(id: string) {
  const start = useRef<{ x: number; y: number } | null>(null);
  const [offset, setOffset] = useState(0);
  const [active, setActive] = useState(false);

  const end = (event: ReactPointerEvent<HTMLElement>) => {
    if (!start.current) return;
    const dx = Math.max(0, event.clientX - start.current.x);
    start.current = null;
    setActive(false);
    if (event.currentTarget.hasPointerCapture(event.pointerId)) event.currentTarget.releasePointerCapture(event.pointerId);
    if (dx >= SWIPE_THRESHOLD_PX) {
      dismissToast(id);
    } else {
      setOffset(0);
      if (!event.currentTarget.matches(":hover, :focus-within")) resumeToast(id);
    }
  };

  return {
    offset,
    active,
    handlers: {
      onPointerDown: (event: ReactPointerEvent<HTMLElement>) => {
        if (event.button !== 0) return;
        start.current = { x: event.clientX, y: event.clientY };
      },
      onPointerMove: (event: ReactPointerEvent<HTMLElement>) => {
        if (!start.current) return;
        const dx = event.clientX - start.current.x;
        // Capture only once a swipe has begun, so a plain click still reaches the Close button.
        if (!active && Math.abs(dx) > 2) {
          setActive(true);
          pauseToast(id);
          event.currentTarget.setPointerCapture(event.pointerId);
        }
        setOffset(Math.max(0, dx));
      },
      onPointerUp: end,
      onPointerCancel: end,
    },
  };
}
