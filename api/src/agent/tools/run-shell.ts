/**
 * run_shell: a shell command in the project's sandbox, from the project root. Foreground commands run to
 * the end under a time-out; background ones (servers) are started, watched for a moment so the model sees
 * their first output (a port, or an error), and reported as 'Started: …'.
 */
import { z } from "zod";
import { describeRun, NO_SANDBOX, succeeded } from "./command-output";
import { clip, defineTool, ToolError } from "./define-tool";

const INSTALL = /^\s*(?:(?:npm|pnpm|yarn|bun)\s+(?:install|i|add|ci)|pip3?\s+install|python3?\s+-m\s+pip\s+install)\b(.*)$/;
/** A background start is watched this long at most, or until its output shows it listening. */
const SERVER_START_WAIT_MS = 3_000;
const SERVER_READY = /localhost:\d+|0\.0\.0\.0:\d+|127\.0\.0\.1:\d+|listening|ready in|started server|running on/i;

/** What an install command installs ('react-router, axios', or 'dependencies'), else null. */
export function installTarget(command: string): string | null {
  const match = INSTALL.exec(command.split(/&&|;|\|/)[0] ?? "");
  if (!match) return null;
  const packages = (match[1] ?? "")
    .trim()
    .split(/\s+/)
    .filter((w) => w && !w.startsWith("-"));
  return packages.length ? packages.join(", ") : "dependencies";
}

export const runShellTool = defineTool({
  name: "run_shell",
  description:
    "Run a shell command (bash) in the project's sandbox, from the project root. Use background: true for " +
    "anything that keeps running (dev servers); servers must listen on 0.0.0.0. Foreground commands are " +
    "killed after timeoutSeconds.",
  input: z.object({
    command: z.string().trim().min(1, "command must not be empty").max(10_000),
    background: z.boolean().optional().describe("Start and return at once, leaving it running (servers)"),
    timeoutSeconds: z.number().int().min(1).max(600).optional().describe("Foreground time limit (default 120)"),
  }),
  summary: (input) => input.command,
  async run(input, ctx) {
    if (!ctx.sandbox) throw new ToolError(NO_SANDBOX);
    const sandbox = ctx.sandbox;
    if (input.background) {
      let output = "";
      const collect = (chunk: string) => {
        if (output.length < 20_000) output += chunk;
      };
      await sandbox.start(input.command, collect);
      // Watch the first output briefly: a port means it is up, an error means it is not.
      const deadline = Date.now() + SERVER_START_WAIT_MS;
      while (Date.now() < deadline && !SERVER_READY.test(output) && !ctx.signal.aborted) await Bun.sleep(100);
      ctx.step(`Started: ${input.command}`, "completed");
      return {
        result: `Started in the background: ${input.command}\n${output.trim() ? `First output:\n${clip(output.trim(), 4_000)}` : "(no output yet)"}`,
        summary: `Started: ${input.command}`,
      };
    }
    const timeoutMs = (input.timeoutSeconds ?? 120) * 1000;
    const install = installTarget(input.command);
    if (install) ctx.step(`Installing ${install}`, "in_progress");
    const result = await sandbox.run(input.command, { timeoutMs, signal: ctx.signal });
    if (install && succeeded(result)) ctx.step(`Installed ${install}`, "completed");
    else ctx.step(`Ran shell: ${input.command}${succeeded(result) ? "" : " (failed)"}`, "completed");
    return { result: describeRun(result, timeoutMs) };
  },
});
