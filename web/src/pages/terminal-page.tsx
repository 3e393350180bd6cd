/**
 * /project/{id}/terminal: a spinner while the project loads, 'No Sandbox Available' without
 * a sandbox, else the dark xterm.js terminal running commands in the sandbox. A toggle beside the title
 * switches between that line terminal ("Shell") and interactive shells on a real pseudo-terminal
 * ("Interactive", in tabs). This page is its own lazy chunk, so xterm.js and its CSS load only when the
 * terminal is opened. A viewer gets neither: a line says they can only view the project.
 */
import { useState } from "react";
import { TerminalIcon } from "../components/ui/icons";
import { SandboxGate } from "../features/projects/components/sandbox-gate";
import { InteractiveTerminals } from "../features/terminal/components/interactive-terminals";
import { SandboxTerminal } from "../features/terminal/components/sandbox-terminal";
import { TerminalModeToggle, type TerminalMode } from "../features/terminal/components/terminal-mode-toggle";
import { shortSandboxId } from "../features/terminal/terminal-output";
import { TERMINAL_BACKGROUND } from "../features/terminal/terminal-theme";
import { useProjectRole, VIEW_ONLY } from "../features/team/use-project-role";

export function TerminalPage({ projectId }: { projectId: string }) {
  const { canEdit } = useProjectRole(projectId);
  // A viewer runs no commands (the API refuses them, and closes a terminal opened before the role changed).
  if (!canEdit) return <ViewOnlyTerminal />;
  return <Terminals projectId={projectId} />;
}

function Terminals({ projectId }: { projectId: string }) {
  const [mode, setMode] = useState<TerminalMode>("shell");
  // Mounted on first use and kept: switching back and forth keeps both terminals' sessions and scrollback.
  const [interactiveOpened, setInteractiveOpened] = useState(false);
  const choose = (next: TerminalMode) => {
    if (next === "interactive") setInteractiveOpened(true);
    setMode(next);
  };
  return (
    <SandboxGate projectId={projectId} noSandbox={<NoSandbox />}>
      {({ sandboxId, name }) => (
        <div className="flex min-h-0 flex-1 flex-col gap-3 px-3 py-4 sm:px-4 md:px-6 md:py-6" data-testid="terminal-page">
          <header className="flex items-center gap-3">
            <h1 className="text-2xl font-bold tracking-tight">Terminal</h1>
            <span
              className="rounded-md border bg-muted px-2 py-0.5 font-mono text-xs text-muted-foreground"
              title="Sandbox id"
              data-testid="terminal-sandbox-id"
            >
              {shortSandboxId(sandboxId)}
            </span>
            <TerminalModeToggle mode={mode} onChange={choose} className="ml-auto" />
          </header>
          <div
            className="flex min-h-[320px] flex-1 flex-col overflow-hidden rounded-xl border border-zinc-800 p-2 shadow-sm sm:p-3"
            style={{ backgroundColor: TERMINAL_BACKGROUND }}
          >
            <div className={mode === "shell" ? "relative min-h-0 flex-1" : "hidden"}>
              <div className="absolute inset-0">
                <SandboxTerminal projectId={projectId} projectName={name} sandboxId={sandboxId} />
              </div>
            </div>
            {interactiveOpened && (
              <div className={mode === "interactive" ? "relative min-h-0 flex-1" : "hidden"}>
                <div className="absolute inset-0">
                  <InteractiveTerminals projectId={projectId} />
                </div>
              </div>
            )}
          </div>
        </div>
      )}
    </SandboxGate>
  );
}

function ViewOnlyTerminal() {
  return (
    <div className="flex flex-1 items-center justify-center px-4 py-24" data-testid="terminal-page">
      <div className="flex max-w-sm flex-col items-center text-center" data-testid="terminal-disabled" aria-disabled="true">
        <span className="mb-4 inline-flex size-12 items-center justify-center rounded-full bg-muted text-muted-foreground">
          <TerminalIcon className="size-6" />
        </span>
        <h1 className="text-lg font-semibold">Terminal unavailable</h1>
        <p className="mt-2 text-sm text-muted-foreground">{VIEW_ONLY} Viewers cannot run commands in its sandbox.</p>
      </div>
    </div>
  );
}

function NoSandbox() {
  return (
    <div className="flex flex-1 items-center justify-center px-4 py-24" data-testid="terminal-page">
      <div className="flex max-w-sm flex-col items-center text-center">
        <span className="mb-4 inline-flex size-12 items-center justify-center rounded-full bg-muted text-muted-foreground">
          <TerminalIcon className="size-6" />
        </span>
        <h1 className="text-lg font-semibold">No Sandbox Available</h1>
        <p className="mt-2 text-sm text-muted-foreground">Start chatting with the AI to create files and initialize the sandbox.</p>
      </div>
    </div>
  );
}
