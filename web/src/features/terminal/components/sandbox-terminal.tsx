/**
 * The xterm.js terminal bound to the project's sandbox. Typing is handled by the pure
 * line editor (terminal-line.ts); Enter sends the command to the shell route while an 'Executing...'
 * animation runs, then prints the result and the prompt again. Ctrl+C while a command runs aborts its
 * request (the API ends the command when its request goes away), prints ^C and prompts again.
 */
import { useEffect, useRef } from "react";
import { mountXterm } from "../mount-xterm";
import { runShellCommand } from "../run-shell-command";
import { applyInput, CTRL_C } from "../terminal-line";
import { CLEAR_LINE, EXECUTING_TICK_MS, executingFrame, greeting, prompt } from "../terminal-output";
import { FIT_DELAY_MS } from "../terminal-theme";

const HIDE_CURSOR = "\x1b[?25l";
const SHOW_CURSOR = "\x1b[?25h";

export function SandboxTerminal({ projectId, projectName, sandboxId }: { projectId: string; projectName: string; sandboxId: string }) {
  const host = useRef<HTMLDivElement>(null);
  // The prompt follows a rename without rebuilding the terminal (and losing its scrollback).
  const name = useRef(projectName);
  name.current = projectName;

  useEffect(() => {
    const element = host.current;
    if (!element) return;
    const { term, refit, dispose } = mountXterm(element);

    let disposed = false;
    let line = "";
    /** The running command's request, while one runs. */
    let running: AbortController | null = null;
    let ticker: ReturnType<typeof setInterval> | undefined;

    const showPrompt = () => term.write(prompt(name.current));
    term.write(greeting(sandboxId));
    showPrompt();
    term.focus();

    const fitTimer = setTimeout(refit, FIT_DELAY_MS);
    const run = async (command: string) => {
      const controller = new AbortController();
      running = controller;
      let frame = 0;
      term.write(HIDE_CURSOR + executingFrame(frame++));
      ticker = setInterval(() => term.write(executingFrame(frame++)), EXECUTING_TICK_MS);
      const output = await runShellCommand(projectId, command, { signal: controller.signal });
      // Cancelled: Ctrl+C already printed ^C and the prompt; the aborted request's error is not news.
      if (disposed || controller.signal.aborted) return;
      clearInterval(ticker);
      term.write(CLEAR_LINE + output + SHOW_CURSOR);
      running = null;
      showPrompt();
    };

    const cancelRunning = () => {
      running?.abort();
      running = null;
      clearInterval(ticker);
      term.write(CLEAR_LINE + "^C\r\n" + SHOW_CURSOR);
      showPrompt();
    };

    const input = term.onData((data) => {
      // One command at a time, and the shell is not interactive: while one runs, only Ctrl+C counts.
      if (running) {
        if (data.includes(CTRL_C)) cancelRunning();
        return;
      }
      const step = applyInput(line, data);
      line = step.line;
      if (step.echo) term.write(step.echo);
      switch (step.outcome?.kind) {
        case undefined:
          return;
        case "cancel":
          term.write("^C\r\n");
          showPrompt();
          return;
        case "reprompt":
          term.write("\r\n");
          showPrompt();
          return;
        case "run":
          term.write("\r\n");
          void run(step.outcome.command);
      }
    });

    return () => {
      disposed = true;
      clearTimeout(fitTimer);
      clearInterval(ticker);
      input.dispose();
      dispose();
    };
  }, [projectId, sandboxId]);

  return <div ref={host} data-testid="terminal" className="size-full" />;
}
