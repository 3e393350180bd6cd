/** The Preview header's badge: 'Active' or 'Expired'. */
import { cn } from "../../../lib/cn";

export function SandboxStatusBadge({ expired }: { expired: boolean }) {
  return (
    <span
      data-testid="sandbox-status"
      data-status={expired ? "expired" : "active"}
      className={cn(
        "inline-flex items-center gap-1.5 rounded-full border px-2.5 py-0.5 text-xs font-medium",
        expired ? "border-destructive/40 bg-destructive/10 text-destructive" : "border-emerald-500/40 bg-emerald-500/10 text-emerald-700 dark:text-emerald-400",
      )}
    >
      <span aria-hidden className={cn("size-1.5 rounded-full", expired ? "bg-destructive" : "bg-emerald-500")} />
      {expired ? "Expired" : "Active"}
    </span>
  );
}
