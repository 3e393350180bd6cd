/**
 * Graceful shutdown (SIGTERM from Docker, systemd or a deploy): stop listening at once, so the load balancer
 * sends new connections to other instances; stop running agent answers, which saves each as 'stopped' with
 * a note and ends its stream with `done`; close file-event WebSockets (browsers reconnect, through the load
 * balancer, to another instance); stop this instance's sandboxes while other in-flight requests get a
 * moment; then close the database and the other parts.
 *
 * @example
 * process.on("SIGTERM", () => shutdownGracefully({ server, parts, logger }).then(() => process.exit(0)));
 */
import type { Server } from "bun";
import type { AppDeps } from "./app-env";
import type { Logger } from "./lib/logger";
import type { RunningParts } from "./start-parts";

export async function shutdownGracefully(o: {
  server: Server<unknown>;
  parts: Pick<RunningParts, "runs" | "hub" | "close"> & { deps: Pick<AppDeps, "sandboxes"> };
  logger: Logger;
  /** How long running answers get to save, and then in-flight requests to finish. */
  runsMs?: number;
  drainMs?: number;
}): Promise<void> {
  const started = Date.now();
  const drained = o.server.stop(false);
  const runsSaved = await settlesWithin(o.parts.runs.shutdown(), o.runsMs ?? 10_000);
  if (!runsSaved) o.logger.warn("running answers did not save in time; closing anyway");
  o.parts.hub.close();
  // Sandboxes go now, beside the drain rather than after it. They are this process's alone and cannot outlive
  // it, but a teardown cut short (docker stop's SIGKILL after 10 s, a test harness's after 5) leaves what does:
  // mounted disk volumes and their loop devices, network namespaces. Their terminal and preview sockets,
  // which would hold the drain to its end, close with them.
  const sandboxesStopped = o.parts.deps.sandboxes.shutdown().catch((e) => o.logger.warn("sandboxes did not stop cleanly", { error: String(e) }));
  const quiet = await settlesWithin(drained, o.drainMs ?? 5_000);
  if (!quiet) o.logger.warn("requests still open at shutdown were cut");
  await sandboxesStopped;
  await o.server.stop(true);
  await o.parts.close();
  o.logger.info("shut down", { ms: Date.now() - started });
}

async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([
      promise.then(
        () => true as const,
        () => true as const,
      ),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
