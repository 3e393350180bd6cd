/**
 * The toast store: at most one toast, auto-dismissed after 5000 ms unless told otherwise.
 * A dismissed toast is closed at once and dropped from the list later, so the view can animate it out.
 *
 * @example
 * toast({ title: "Project created", description: "Your new project has been created successfully." });
 * toast({ title: "Sign in failed", description: message, variant: "destructive" });
 */
import { createStore, useStore } from "../../lib/create-store";

export type ToastVariant = "default" | "destructive";
export type ToastInput = { title: string; description?: string; variant?: ToastVariant; durationMs?: number };
export type Toast = ToastInput & { id: string; open: boolean };

export const TOAST_LIMIT = 1;
export const TOAST_DURATION_MS = 5000;
export const TOAST_REMOVE_DELAY_MS = 1_000_000;

const toasts = createStore<Toast[]>([]);
let counter = 0;
const timers = new Map<string, ReturnType<typeof setTimeout>>();
// Auto-dismiss clocks of open toasts: when the current run ends, or how long is left while paused.
const clocks = new Map<string, { endsAt: number } | { remaining: number }>();

function schedule(id: string, ms: number, run: () => void): void {
  clearTimeout(timers.get(id));
  timers.set(id, setTimeout(run, ms));
}

export function dismissToast(id: string): void {
  clocks.delete(id);
  toasts.set((list) => list.map((t) => (t.id === id ? { ...t, open: false } : t)));
  schedule(id, TOAST_REMOVE_DELAY_MS, () => removeToast(id));
}

function removeToast(id: string): void {
  clearTimeout(timers.get(id));
  timers.delete(id);
  clocks.delete(id);
  toasts.set((list) => list.filter((t) => t.id !== id));
}

export function toast(input: ToastInput): { id: string; dismiss: () => void } {
  const id = String(++counter);
  for (const dropped of toasts.get().slice(TOAST_LIMIT - 1)) {
    clearTimeout(timers.get(dropped.id));
    timers.delete(dropped.id);
    clocks.delete(dropped.id);
  }
  toasts.set((list) => [{ ...input, id, open: true }, ...list].slice(0, TOAST_LIMIT));
  runClock(id, input.durationMs ?? TOAST_DURATION_MS);
  return { id, dismiss: () => dismissToast(id) };
}

function runClock(id: string, ms: number): void {
  clocks.set(id, { endsAt: Date.now() + ms });
  schedule(id, ms, () => dismissToast(id));
}

/** Stops the auto-dismiss clock while the toast is hovered, focused or being swiped. */
export function pauseToast(id: string): void {
  const clock = clocks.get(id);
  if (!clock || !("endsAt" in clock)) return;
  clearTimeout(timers.get(id));
  clocks.set(id, { remaining: Math.max(0, clock.endsAt - Date.now()) });
}

/** Restarts a paused clock with the time that was left. */
export function resumeToast(id: string): void {
  const clock = clocks.get(id);
  if (!clock || !("remaining" in clock)) return;
  runClock(id, clock.remaining);
}

/** The current list, newest first (for code outside React; components use useToasts). */
export function getToasts(): Toast[] {
  return toasts.get();
}

export function useToasts(): Toast[] {
  return useStore(toasts);
}
