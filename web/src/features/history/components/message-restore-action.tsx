/**
 * A chat message's way back: "Restore to before this message" on the person's messages, "Undo this run"
 * on an answer whose run changed files. Both find the version holding the files as the run found them,
 * then confirm the restore.
 */
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { describeError } from "../../../api/api-error";
import { api } from "../../../api/endpoints";
import { Spinner } from "../../../components/ui/spinner";
import { toast } from "../../../components/ui/use-toast";
import { HistoryIcon } from "./history-icon";
import { type RestoreTarget, RestoreDialog } from "./restore-dialog";

const TEXT = {
  user: { button: "Restore to before this message", title: "Restore to before this message?" },
  run: { button: "Undo this run", title: "Undo this run?" },
} as const;

export function MessageRestoreAction({ projectId, messageId, kind }: { projectId: string; messageId: string; kind: "user" | "run" }) {
  const [target, setTarget] = useState<RestoreTarget | null>(null);
  const find = useMutation({
    mutationFn: () => api.versions.beforeMessage(projectId, messageId),
    onSuccess: setTarget,
    onError: (err) => toast({ title: "Nothing to restore", description: describeError(err), variant: "destructive" }),
  });
  return (
    <>
      <button
        type="button"
        onClick={() => find.mutate()}
        disabled={find.isPending}
        data-testid={kind === "run" ? "undo-run" : "restore-before-message"}
        className="inline-flex items-center gap-1 rounded px-1.5 py-0.5 text-xs text-muted-foreground hover:bg-muted hover:text-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring disabled:opacity-50"
      >
        {find.isPending ? <Spinner className="size-3" /> : <HistoryIcon className="size-3" />}
        {TEXT[kind].button}
      </button>
      <RestoreDialog projectId={projectId} target={target} title={TEXT[kind].title} onClose={() => setTarget(null)} />
    </>
  );
}
