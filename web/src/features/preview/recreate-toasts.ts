/**
 * The toasts after a successful recreate (spec §4, §8, §9). The toast list holds one toast, so toasts
 * given at the same moment would replace each other unseen; each follows the one before by 1 s instead:
 *
 *   0 s  'Sandbox recreated' / 'New sandbox created with {n} files synced'
 *   1 s  'Running workflow' with the command            (only when a workflowCommand came back)
 *   2 s  'App is starting', advising to refresh the preview 2-3 times (1 s after the workflow toast)
 *
 * Without a workflowCommand nothing is started, so only the first toast is shown.
 */
import type { RecreateResult } from "@shared/schemas/sandbox";
import type { ToastInput } from "../../components/ui/use-toast";

export const RECREATE_TOAST_STEP_MS = 1_000;

export type Scheduler = (run: () => void, ms: number) => void;

export function showRecreateToasts(
  result: RecreateResult,
  toast: (input: ToastInput) => unknown,
  schedule: Scheduler = (run, ms) => void setTimeout(run, ms),
): void {
  // Word for word from spec §8, "1 files" included.
  toast({ title: "Sandbox recreated", description: `New sandbox created with ${result.filesSynced} files synced` });
  const command = result.workflowCommand;
  if (!command) return;
  schedule(() => toast({ title: "Running workflow", description: command }), RECREATE_TOAST_STEP_MS);
  schedule(
    () =>
      toast({
        title: "App is starting",
        description: "Refresh the preview 2-3 times if the app doesn't show up right away.",
      }),
    2 * RECREATE_TOAST_STEP_MS,
  );
}
