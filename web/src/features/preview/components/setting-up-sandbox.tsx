/** What the preview shows before the project has a sandbox (the Preview screen and the chat's panel alike). */
import { Spinner } from "../../../components/ui/spinner";
import { cn } from "../../../lib/cn";

export function SettingUpSandbox({ className, testId }: { className?: string; testId?: string }) {
  return (
    <div className={cn("flex flex-1 flex-col items-center justify-center gap-3 py-24 text-muted-foreground", className)} data-testid={testId}>
      <Spinner className="size-8" />
      <p className="text-sm">Setting up sandbox...</p>
    </div>
  );
}
