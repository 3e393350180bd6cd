/**
 * Graceful shutdown (SIGTERM from Docker, systemd or a deploy). First the instance drains: `/api/ready`
 * answers 503 at once (the load balancer's health check takes it out of rotation) and nothing new starts
 * here (a new run, sandbox or publish build answers 503 saying so), while publish builds already running
 * get up to DRAIN_TIMEOUT_S to finish and running agent answers are stopped and saved (each as 'stopped' with a
 * note, its stream ending with `done`). Then it stops listening, closes the file-event WebSockets (browsers
 * reconnect, through the load balancer, to another instance), stops this instance's sandboxes while other
 * in-flight requests get a moment, and closes the database and the other parts.
 *
 * @example
 * process.on("SIGTERM", () => shutdownGracefully({ server, parts, logger }).then(() => process.exit(0)));
 */
import type { Server } from "bun";
import type { AppDeps } from "./app-env";
import type { Logger } from "./lib/logger";
import { buildsSettled } from "./services/publish";
import type { RunningParts } from "./start-parts";

/** After the drain's deadline, how long a cut build gets to record itself as failed (its sandbox is gone). */
const CUT_BUILD_RECORD_MS = 3_000;

export async function shutdownGracefully(o: {
  server: Server<unknown>;
  parts: Pick<RunningParts, "runs" | "hub" | "close"> & { deps: Pick<AppDeps, "sandboxes" | "drain" | "config"> };
  logger: Logger;
  /** How long running answers get to save, and then in-flight requests to finish. */
  runsMs?: number;
  drainMs?: number;
  /** What publish builds still run in this process (the publish service's by default). */
  builds?: () => Promise<unknown>;
}): Promise<void> {
  const started = Date.now();
  const builds = o.builds ?? buildsSettled;
  o.parts.deps.drain.begin();
  const buildsDone = settlesWithin(builds(), o.parts.deps.config.drainTimeoutMs);
  const runsSaved = await settlesWithin(o.parts.runs.shutdown(), o.runsMs ?? 10_000);
  if (!runsSaved) o.logger.warn("running answers did not save in time; closing anyway");
  const buildsFinished = await buildsDone;
  if (!buildsFinished) o.logger.warn("publish builds still running after DRAIN_TIMEOUT_S are cut", { drainTimeoutMs: o.parts.deps.config.drainTimeoutMs });
  const drained = o.server.stop(false);
  o.parts.hub.close();
  // Sandboxes go now, beside the drain rather than after it. They are this process's alone and cannot outlive
  // it, but a teardown cut short (docker stop's SIGKILL after its grace period, a test harness's after 5 s)
  // leaves what does: mounted disk volumes and their loop devices, network namespaces. Their terminal and
  // preview sockets, which would hold the drain to its end, close with them.
  const sandboxesStopped = o.parts.deps.sandboxes.shutdown().catch((e) => o.logger.warn("sandboxes did not stop cleanly", { error: String(e) }));
  const quiet = await settlesWithin(drained, o.drainMs ?? 5_000);
  if (!quiet) o.logger.warn("requests still open at shutdown were cut");
  await sandboxesStopped;
  // A cut build fails once its sandbox is gone, and records that while the database is still open.
  if (!buildsFinished) await settlesWithin(builds(), CUT_BUILD_RECORD_MS);
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
