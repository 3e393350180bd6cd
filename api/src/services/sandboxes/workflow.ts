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

/** Ports probed at most per call, and how long each may take to start an HTTP answer. */
const MAX_PROBED_PORTS = 8;
const HTTP_PROBE_SECONDS = 2;

/**
 * The first of `ports` (in order) that answers HTTP, probed inside the sandbox like `waitForServer`: a HEAD
 * request is sent and the answer must start with "HTTP/". Null when none does (yet). Never throws.
 */
export async function firstHttpPort(sandbox: Sandbox, ports: number[]): Promise<number | null> {
  const candidates = ports.filter((p) => Number.isInteger(p) && p > 0 && p < 65536).slice(0, MAX_PROBED_PORTS);
  if (!candidates.length) return null;
  // Builtins only (bash's /dev/tcp and read -t), so it works in any image with bash.
  // HEAD, and the answer read to its end before closing: closing on unread bytes resets the connection, which
  // servers log as an error in the app's own log.
  const probe =
    `drain() { while read -r -t 1 _ <&3; do :; done; true; }; ` +
    `for p in ${candidates.join(" ")}; do ` +
    `if (exec 3<>/dev/tcp/127.0.0.1/$p && printf "HEAD / HTTP/1.0\\r\\nHost: localhost\\r\\n\\r\\n" >&3 && read -r -t ${HTTP_PROBE_SECONDS} -n 5 h <&3 && [ "$h" = HTTP/ ] && drain) 2>/dev/null; ` +
    `then echo $p; exit 0; fi; done; exit 1`;
  const timeoutMs = candidates.length * (HTTP_PROBE_SECONDS + 1) * 1000 + 5_000;
  const result = await sandbox.run(`bash -c '${probe}'`, { timeoutMs }).catch(() => null);
  const port = result?.exitCode === 0 ? Number(result.stdout.trim()) : NaN;
  return candidates.includes(port) ? port : null;
}
