/**
 * Build / Plan: in Plan the agent only reads the project and answers with a plan (a checklist) that
 * "Build this" then sends to Build. A two-option radio group, so screen readers name the choice.
 */
import type { ChatMode } from "@shared/events/stream";
import { cn } from "../../../lib/cn";

const OPTIONS: { mode: ChatMode; label: string; title: string }[] = [
  { mode: "build", label: "Build", title: "The agent changes the project's files and runs commands" },
  { mode: "plan", label: "Plan", title: "The agent only reads the project and answers with a plan to review" },
];

export function ModeSwitch({ mode, onChange, disabled }: { mode: ChatMode; onChange: (mode: ChatMode) => void; disabled: boolean }) {
  return (
    <div role="radiogroup" aria-label="Agent mode" data-testid="mode-switch" className="inline-flex rounded-full border bg-muted/40 p-0.5 text-xs">
      {OPTIONS.map((o) => (
        <button
          key={o.mode}
          type="button"
          role="radio"
          aria-checked={mode === o.mode}
          title={o.title}
          disabled={disabled}
          onClick={() => onChange(o.mode)}
          data-testid={`mode-${o.mode}`}
          className={cn(
            "rounded-full px-2.5 py-1 font-medium transition-colors focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring disabled:opacity-50",
            mode === o.mode ? "bg-background text-foreground shadow-sm" : "text-muted-foreground hover:text-foreground",
          )}
        >
          {o.label}
        </button>
      ))}
    </div>
  );
}
