/**
 * Every toast the chat raises, and which one tells how a turn went: a refused send, a dropped stream, an
 * error from the run, an answer finished while the tab was hidden, a stop that failed.
 *
 * @example
 * toast(chatToasts.refused("A run is already going"));
 * const note = turnEndToast("dropped", { hidden: document.hidden });
 */
import type { ApiError } from "../../api/api-error";
import type { ToastInput } from "../../components/ui/use-toast";

const BACKGROUND = "Your request was processed in the background.";

export const chatToasts = {
  refused: (message: string): ToastInput => ({ title: "Failed to send message", description: message, variant: "destructive" }),
  budgetSpent: (message: string): ToastInput => ({ title: "Monthly token budget used", description: message, variant: "destructive", durationMs: 10_000 }),
  noBody: (): ToastInput => ({ title: "Failed to send message", description: "No response body", variant: "destructive" }),
  streamError: (message: string): ToastInput => ({ title: "Error", description: message, variant: "destructive" }),
  interrupted: (): ToastInput => ({ title: "Connection interrupted", description: "Refreshing to show completed work..." }),
  interruptedWhileHidden: (): ToastInput => ({ title: "Processing Complete", description: BACKGROUND }),
  doneWhileHidden: (): ToastInput => ({ title: "AI Processing Complete", description: BACKGROUND }),
  stopFailed: (message: string): ToastInput => ({ title: "Failed to stop", description: message, variant: "destructive" }),
};

/** A send the server refused: 409 (a run is already going) or 429 (too many messages, or the month's tokens spent); its message says which. */
export function refusedToast(err: ApiError): ToastInput {
  return err.code === "budget_exhausted" ? chatToasts.budgetSpent(err.error) : chatToasts.refused(err.error);
}

/**
 * How the end of a followed turn is told, or null when it needs no telling: a dropped stream always (the
 * history is refetched to show what was done), a finished answer only when the tab was hidden during the
 * turn and it did not fail (a failure was told by its error toast already).
 */
export function turnEndToast(end: "done" | "dropped", o: { hidden: boolean; failed?: boolean }): ToastInput | null {
  if (end === "dropped") return o.hidden ? chatToasts.interruptedWhileHidden() : chatToasts.interrupted();
  return o.hidden && !o.failed ? chatToasts.doneWhileHidden() : null;
}
