/** How a command's result reads to the model: exit status first, then the (clipped) output streams. */
import type { CommandResult } from "../ports";
import { clip } from "./define-tool";

export const NO_SANDBOX = "Sandboxes are not available on this server, so commands cannot run.";

export function describeRun(result: CommandResult, timeoutMs: number): string {
  const status = result.timedOut
    ? `Timed out after ${Math.round(timeoutMs / 1000)} s (the command was killed).`
    : result.exitCode === null
      ? "The command was stopped."
      : `Exit code ${result.exitCode}${result.exitCode === 0 ? " (success)" : " (failed)"}.`;
  const parts = [status];
  if (result.stdout.trim()) parts.push(`stdout:\n${clip(result.stdout.trimEnd(), 8_000)}`);
  if (result.stderr.trim()) parts.push(`stderr:\n${clip(result.stderr.trimEnd(), 6_000)}`);
  if (!result.stdout.trim() && !result.stderr.trim()) parts.push("(no output)");
  if (result.truncated) parts.push("(output beyond 1 MiB was dropped)");
  return parts.join("\n");
}

export const succeeded = (r: CommandResult) => !r.timedOut && r.exitCode === 0;
