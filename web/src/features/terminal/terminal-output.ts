/**
 * What the terminal prints, as text with ANSI colours: the greeting, the prompt, the
 * 'Executing...' animation frames, and a shell result — stdout plain, stderr red, an error as red
 * 'Error: ...'. Pure, so the exact output is unit-tested.
 */
import type { ShellResult } from "@shared/schemas/sandbox";

const RED = "\x1b[31m";
const GREEN = "\x1b[32m";
const CYAN = "\x1b[36m";
const BOLD = "\x1b[1m";
const DIM = "\x1b[2m";
const RESET = "\x1b[0m";
/** Carriage return, then erase the whole line: redraws the line the cursor is on. */
export const CLEAR_LINE = "\r\x1b[2K";

export const EXECUTING_TICK_MS = 200;
export const SANDBOX_ID_SHOWN = 8;

export function shortSandboxId(sandboxId: string): string {
  return sandboxId.slice(0, SANDBOX_ID_SHOWN);
}

export function greeting(sandboxId: string): string {
  return (
    `${BOLD}${CYAN}Welcome to the E2B Sandbox Terminal${RESET}\r\n` +
    `${DIM}Connected to sandbox ${shortSandboxId(sandboxId)}. Commands run in the project folder.${RESET}\r\n\r\n`
  );
}

/** `{project name} $ ` with the name in green; the visible text is exactly the name, a space, `$`, a space. */
export function prompt(projectName: string): string {
  return `${GREEN}${projectName}${RESET} $ `;
}

const SPINNER = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

/** Frame n of the animation shown while a command runs; one frame per EXECUTING_TICK_MS. */
export function executingFrame(n: number): string {
  return `${CLEAR_LINE}${CYAN}${SPINNER[n % SPINNER.length]} Executing...${RESET}`;
}

export function red(text: string): string {
  return `${RED}${text}${RESET}`;
}

/** An error line ('Error: ...' in red) followed by a line break. */
export function errorLine(message: string): string {
  return `${red(`Error: ${message}`)}\r\n`;
}

/**
 * The result of one command: each stdout line as is, each stderr line red, then the error (if any) as
 * 'Error: ...' in red. Every line ends with CRLF, since xterm does not turn a bare LF into a new line.
 */
export function formatShellResult(result: ShellResult): string {
  let out = "";
  for (const line of lines(result.stdout)) out += `${line}\r\n`;
  for (const line of lines(result.stderr)) out += `${red(line)}\r\n`;
  if (result.error) out += errorLine(result.error);
  return out;
}

/** The lines of a stream, without the empty one a trailing newline would leave. */
function lines(text: string): string[] {
  if (!text) return [];
  const all = text.replace(/\r\n?/g, "\n").split("\n");
  if (all.at(-1) === "") all.pop();
  return all;
}
