/**
 * The project's app inside its sandbox: the named process `app`, started (or restarted) with the project's
 * workflowCommand, and waited for until its port accepts connections.
 */
import { APP_PROCESS } from "@shared/schemas/processes";
import type { Sandbox } from "../../sandbox/types";

/**
 * Starts `command` as the sandbox's `app` process, replacing a running one: supervised, so it outlives the
 * request that started it, is restarted after a crash, and its output and ports are known.
 */
export async function startWorkflow(sandbox: Sandbox, command: string): Promise<void> {
  await sandbox.processes.start(APP_PROCESS, command);
}

/**
 * Waits (inside the sandbox, so it works for every provider) until something accepts connections on `port`,
 * so a preview opened right after an apply finds the app rather than 'Nothing is answering'. Never throws.
 */
export async function waitForServer(sandbox: Sandbox, port: number, timeoutMs: number): Promise<boolean> {
  const tries = Math.ceil(timeoutMs / 50);
  // bash named explicitly: /dev/tcp is bash's; without bash this fails at once instead of waiting in vain.
  const script = `bash -c 'for i in $(seq 1 ${tries}); do (exec 3<>/dev/tcp/127.0.0.1/${port}) 2>/dev/null && exit 0; sleep 0.05; done; exit 1'`;
  const result = await sandbox.run(script, { timeoutMs: timeoutMs + 5_000 }).catch(() => null);
  return result?.exitCode === 0;
}
