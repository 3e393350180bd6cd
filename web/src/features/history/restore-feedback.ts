/**
 * The toasts of a restore. A restore refused because the agent is working (409) shows the API's own
 * sentence, which says what to do.
 */
import type { RestoreResult } from "@shared/schemas/versions";
import { ApiError, describeError } from "../../api/api-error";
import type { ToastInput } from "../../components/ui/use-toast";

const DATA_NOTES: Record<RestoreResult["data"], string> = {
  restored: " The database is back as it was too.",
  unchanged: "",
  not_included: " The database was left as it is: this version was taken without its data (too large to keep).",
};

export function restoredToast(result: Pick<RestoreResult, "written" | "deleted"> & Partial<Pick<RestoreResult, "data">>, label: string): ToastInput {
  const changed = result.written + result.deleted;
  const detail = changed === 0 ? "The files already matched it." : `${changed} ${changed === 1 ? "file" : "files"} changed.`;
  return { title: "Version restored", description: `Files are back to "${label}". ${detail}${DATA_NOTES[result.data ?? "unchanged"]}` };
}

export function restoreFailedToast(err: unknown): ToastInput {
  if (err instanceof ApiError && err.status === 409) return { title: "Restore refused", description: err.error, variant: "destructive" };
  return { title: "Restore failed", description: describeError(err, "The version could not be restored."), variant: "destructive" };
}
