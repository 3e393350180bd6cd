/**
 * The terminal's one-shot shell commands: run in the project's sandbox with a time limit and capped output,
 * or, when the command ends with a lone `&`, started as a background process that outlives the request.
 * Aborting `signal` (the browser dropped the request, e.g. Ctrl+C in the terminal) kills the command.
 *
 * @example
 * const result = await runShellCommand(sandboxes, access, "ls -la", c.req.raw.signal);
 */
import type { ShellResult } from "@shared/schemas/sandbox";
import type { ProjectAccess } from "../access";
import type { ProjectSandboxes } from "./types";

export const SHELL_TIMEOUT_MS = 60_000;
/** Characters of each stream sent back to the terminal. */
export const SHELL_OUTPUT_CAP = 256 * 1024;

const cap = (text: string) => (text.length > SHELL_OUTPUT_CAP ? `${text.slice(0, SHELL_OUTPUT_CAP)}\n[output cut at ${SHELL_OUTPUT_CAP / 1024} KB]` : text);

/** The command without its trailing `&` when it asks to run in the background (`&&` does not), else null. */
export function backgroundCommand(command: string): string | null {
  return /(^|[^&])&\s*$/.test(command) ? command.replace(/&\s*$/, "").trim() : null;
}

export async function runShellCommand(
  sandboxes: Pick<ProjectSandboxes, "ensure">,
  access: ProjectAccess,
  command: string,
  signal?: AbortSignal,
  timeoutMs = SHELL_TIMEOUT_MS,
): Promise<ShellResult> {
  const sandbox = await sandboxes.ensure(access);
  // Each command runs in its own process namespace, which ends with it. A trailing `&` asks for a server
  // that outlives the command, so start it as a background process of the sandbox instead.
  const started = backgroundCommand(command);
  if (started !== null) {
    await sandbox.run(started, { background: true });
    return { stdout: `Started in the background: ${started}\n`, stderr: "", error: null };
  }
  const result = await sandbox.run(command, { timeoutMs, signal });
  return {
    stdout: cap(result.stdout),
    stderr: cap(result.stderr),
    // A command cut short by the sandbox's limits says so, even when its shell still exited 0.
    error: result.timedOut
      ? `Command timed out after ${timeoutMs / 1000} s and was stopped. Start long-running servers in the background by ending the command with &.`
      : result.limitHit
        ? result.limitHit
        : result.exitCode !== 0 && result.exitCode !== null
          ? `Command exited with code ${result.exitCode}`
          : result.truncated
            ? "Output was longer than 1 MB and was cut."
            : null,
  };
}
