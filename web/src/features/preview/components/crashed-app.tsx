/** In place of the empty frame when `app` has crashed: what it printed last, Restart, and Fix with AI. */
import type { ProcessInfo, ProcessLogLine } from "@shared/schemas/processes";
import { useLocation } from "wouter";
import { Button } from "../../../components/ui/button";
import { sendToChat } from "../../chat/chat-outbox";
import { projectPath } from "../../projects/project-views";
import { stripAnsi } from "../ansi";
import { LogsPanel } from "./logs-panel";

/** Lines of output the crashed view shows (the Logs panel has the rest). */
export const CRASH_LINES = 40;

/** The message "Fix with AI" sends: what crashed and its last output, as the agent needs them. */
export function crashFixPrompt(app: ProcessInfo, lines: ProcessLogLine[]): string {
  const output = lines
    .slice(-CRASH_LINES)
    .map((l) => stripAnsi(l.text))
    .join("\n")
    .trim();
  const exit = app.exitCode === null ? "stopped" : `exited with code ${app.exitCode}`;
  return `The app crashed: \`${app.command}\` ${exit}.${output ? ` Its last output:\n\n\`\`\`\n${output}\n\`\`\`` : ""}\n\nFind the cause, fix it and restart the app.`;
}

export function CrashedApp({
  projectId,
  app,
  lines,
  restarting,
  onRestart,
}: {
  projectId: string;
  app: ProcessInfo;
  lines: ProcessLogLine[];
  restarting: boolean;
  onRestart: () => void;
}) {
  const [, navigate] = useLocation();
  const fix = () => void sendToChat(projectId, crashFixPrompt(app, lines), { openChat: () => navigate(projectPath(projectId, "chat")) });
  return (
    <div
      data-testid="app-crashed"
      role="alert"
      className="flex min-h-[360px] flex-1 flex-col gap-3 rounded-xl border border-destructive/40 bg-card p-4 shadow-sm"
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div>
          <h2 className="font-semibold">The app crashed</h2>
          <p className="text-sm text-muted-foreground">
            <code className="font-mono">{app.command}</code> exited{app.exitCode === null ? "" : ` with code ${app.exitCode}`}
            {app.restarts > 0 ? ` after ${app.restarts} restart${app.restarts === 1 ? "" : "s"}` : ""}. Its last output:
          </p>
        </div>
        <div className="flex gap-2">
          <Button variant="outline" onClick={onRestart} disabled={restarting}>
            {restarting ? "Restarting…" : "Restart"}
          </Button>
          <Button onClick={fix} data-testid="crash-fix-with-ai">
            Fix with AI
          </Button>
        </div>
      </div>
      <LogsPanel lines={lines.slice(-CRASH_LINES)} className="min-h-0 flex-1" testId="app-crash-logs" />
    </div>
  );
}
