/** Asks before an admin action takes effect: what will happen to whom, then Cancel or the action. */
import { useRef } from "react";
import { Button } from "../../components/ui/button";
import { Dialog } from "../../components/ui/dialog";
import { type AdminAction, useAdminAction } from "./use-admin";

const WORDING: Record<AdminAction["kind"], { title: string; button: string; describe: (label: string) => string }> = {
  disable: {
    title: "Disable user",
    button: "Disable",
    describe: (who) => `${who} will be refused on every request, their open pages disconnect, and their answers and sandboxes stop.`,
  },
  enable: { title: "Enable user", button: "Enable", describe: (who) => `${who} can sign in and work again.` },
  stopRun: { title: "Stop answer", button: "Stop answer", describe: (what) => `The answer in ${what} stops; what it wrote so far is kept.` },
  stopSandbox: {
    title: "Stop sandbox",
    button: "Stop sandbox",
    describe: (what) => `The sandbox of ${what} stops. Its files are stored; it starts again when the project is next used.`,
  },
};

export function ConfirmActionDialog({ action, onClose }: { action: AdminAction | null; onClose: () => void }) {
  const mutation = useAdminAction();
  // Keep the last action's words while the dialog animates out.
  const shown = useRef(action);
  if (action) shown.current = action;
  const current = shown.current;
  const words = current ? WORDING[current.kind] : WORDING.stopRun;
  const close = () => {
    if (!mutation.isPending) onClose();
  };
  const confirm = () => {
    if (action) mutation.mutate(action, { onSettled: onClose });
  };
  return (
    <Dialog open={action !== null} onClose={close} title={words.title} description={current ? words.describe(current.label) : ""}>
      <div className="flex justify-end gap-2">
        <Button variant="outline" onClick={close} disabled={mutation.isPending}>
          Cancel
        </Button>
        <Button variant={current?.kind === "enable" ? "primary" : "destructive"} onClick={confirm} disabled={mutation.isPending}>
          {words.button}
        </Button>
      </div>
    </Dialog>
  );
}
