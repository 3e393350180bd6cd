/**
 * The toasts after a successful recreate. The toast list holds one toast, and two toasts given at the
 * same moment would replace each other unseen, so they go one second apart:
 *
 *   0 s  with a workflowCommand: 'Running workflow' with the command (as soon as the answer names it);
 *        without one: 'Sandbox recreated' / 'New sandbox created with {n} files synced'
 *   1 s  'App is starting' — with a workflow it carries the advice to refresh the preview 2-3 times, which
 *        is due 1 s after the workflow toast, so it comes in this same toast
 */
import type { RecreateResult } from "@shared/schemas/sandbox";
import type { ToastInput } from "../../components/ui/use-toast";

export const RECREATE_TOAST_STEP_MS = 1_000;
export const REFRESH_ADVICE = "Refresh the preview 2-3 times if the app doesn't show up right away.";

export type Scheduler = (run: () => void, ms: number) => void;

export function showRecreateToasts(
  result: RecreateResult,
  toast: (input: ToastInput) => unknown,
  schedule: Scheduler = (run, ms) => void setTimeout(run, ms),
): void {
  const command = result.workflowCommand;
  if (command) toast({ title: "Running workflow", description: command });
  // The fixed wording, "1 files" included (tests and users look for this exact text).
  else toast({ title: "Sandbox recreated", description: `New sandbox created with ${result.filesSynced} files synced` });
  schedule(
    () =>
      toast({
        title: "App is starting",
        description: command ? REFRESH_ADVICE : "The new sandbox is starting up. Refresh the preview if it stays empty.",
      }),
    RECREATE_TOAST_STEP_MS,
  );
}
