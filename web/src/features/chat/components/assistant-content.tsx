/** An assistant answer: Markdown runs, with the run's step lines (../step-lines.ts) drawn as in-progress, completed or warning steps. */
import { memo } from "react";
import { Spinner } from "../../../components/ui/spinner";
import { Markdown } from "../markdown/markdown";
import { isStepActive, type RunSteps, splitSteps } from "../step-lines";
import { CheckCircleIcon, CircleIcon, WarningIcon } from "./icons";

export const AssistantContent = memo(function AssistantContent({ content, steps, streaming }: { content: string; steps: RunSteps; streaming: boolean }) {
  const segments = splitSteps(content, steps);
  return (
    <div className="space-y-2">
      {segments.map((segment, i) =>
        segment.kind === "text" ? (
          <Markdown key={i} text={segment.text} />
        ) : (
          <div key={i} data-testid="step" data-status={segment.status} className="flex items-start gap-2 text-sm">
            <span className="mt-0.5 inline-flex size-4 shrink-0 items-center justify-center">
              {segment.status === "warning" ? (
                <WarningIcon className="size-4 text-amber-500" label="Warning" />
              ) : segment.status === "completed" ? (
                <CheckCircleIcon className="size-4 text-emerald-500" />
              ) : isStepActive(segments, i, streaming) ? (
                <Spinner className="size-3.5 border-[1.5px] text-primary" />
              ) : (
                <CircleIcon className="size-4 text-muted-foreground" />
              )}
            </span>
            <span
              className={
                segment.status === "warning"
                  ? "font-medium text-amber-700 dark:text-amber-400"
                  : segment.status === "completed"
                    ? "text-foreground"
                    : "text-muted-foreground"
              }
            >
              {segment.text}
            </span>
          </div>
        ),
      )}
    </div>
  );
});
