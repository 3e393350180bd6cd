/**
 * Shell | Interactive: which terminal the Terminal screen shows. "Shell" is the line terminal (one command
 * at a time); "Interactive" is a real shell on a pseudo-terminal, for full-screen programs and prompts.
 */
import { cn } from "../../../lib/cn";

export type TerminalMode = "shell" | "interactive";

const MODES: { mode: TerminalMode; label: string; hint: string }[] = [
  { mode: "shell", label: "Shell", hint: "One command at a time" },
  { mode: "interactive", label: "Interactive", hint: "A full terminal: vi, top, REPLs, prompts, Ctrl+C" },
];

export function TerminalModeToggle({ mode, onChange, className }: { mode: TerminalMode; onChange: (mode: TerminalMode) => void; className?: string }) {
  return (
    <div role="group" aria-label="Terminal mode" className={cn("inline-flex rounded-md border bg-muted p-0.5 text-xs", className)}>
      {MODES.map((m) => (
        <button
          key={m.mode}
          type="button"
          title={m.hint}
          aria-pressed={mode === m.mode}
          onClick={() => onChange(m.mode)}
          className={cn(
            "rounded px-2.5 py-1 font-medium transition-colors",
            mode === m.mode ? "bg-background text-foreground shadow-sm" : "text-muted-foreground hover:text-foreground",
          )}
        >
          {m.label}
        </button>
      ))}
    </div>
  );
}
