/** Renders the toast store in a corner of the screen. Mount once, near the root. */
import { cn } from "../../lib/cn";
import { dismissToast, useToasts } from "./use-toast";

export function Toaster() {
  const toasts = useToasts().filter((t) => t.open);
  return (
    <div
      aria-live="polite"
      className="pointer-events-none fixed inset-x-0 top-0 z-[100] flex flex-col items-center gap-2 p-4 sm:inset-x-auto sm:top-auto sm:right-0 sm:bottom-0 sm:items-end"
    >
      {toasts.map((t) => (
        <div
          key={t.id}
          role={t.variant === "destructive" ? "alert" : "status"}
          data-testid="toast"
          className={cn(
            "pointer-events-auto flex w-full max-w-sm items-start gap-3 rounded-lg border p-4 shadow-lg",
            t.variant === "destructive" ? "border-destructive bg-destructive text-destructive-foreground" : "bg-card",
          )}
        >
          <div className="flex-1">
            <p className="text-sm font-semibold">{t.title}</p>
            {t.description && <p className="mt-1 text-sm opacity-90">{t.description}</p>}
          </div>
          <button
            type="button"
            aria-label="Close"
            onClick={() => dismissToast(t.id)}
            className="rounded px-1 text-lg leading-none opacity-70 hover:opacity-100"
          >
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
