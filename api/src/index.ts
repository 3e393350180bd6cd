/** Entry point of `bun run start`: read the configuration, start every part, serve HTTP. */
import { ConfigError, describeConfig, loadConfig } from "./lib/config";
import { createLogger } from "./lib/logger";
import { LOCAL_APP_HOST } from "./lib/config/preview";
import { serveHttp } from "./http-server";
import { serveMetrics } from "./metrics-server";
import type { Server } from "bun";
import { startParts } from "./start-parts";
import { setInternalUrl } from "./lib/instance";
import { shutdownGracefully } from "./shutdown";
import { parentToWatch, processAlive } from "./lib/parent-watch";

// Test harnesses set EXIT_WITH_PARENT (to their own pid, or "1" for whichever process is the parent now) so an
// app they started cannot outlive them, even when they are killed outright. Watched from here on, since a
// harness can go while start-up still waits (on the database, say), when there is nothing to save yet; by
// pid, since the parent may have gone before this line ran, and `bun run start` puts a process in between.
const watchedParent = parentToWatch(process.env.EXIT_WITH_PARENT);
let onParentGone: () => void = () => process.exit(1);
if (watchedParent !== null) setInterval(() => !processAlive(watchedParent) && onParentGone(), 1000).unref();

let config;
try {
  config = loadConfig();
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(`\n${error.message}\n`);
    process.exit(1);
  }
  throw error;
}

const logger = createLogger(config.logLevel);
console.log(["Starting the app builder with:", ...describeConfig(config).map((l) => `  ${l}`)].join("\n"));

let parts;
try {
  parts = await startParts(config, logger);
} catch (error) {
  console.error(`\nStart-up failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}

const server = serveHttp({
  port: config.port,
  hostname: config.host,
  fetch: parts.app.fetch,
  hub: parts.hub,
  preview: parts.preview,
  pty: parts.pty,
  sites: parts.sites,
  servers: parts.serverProxy,
  instances: parts.instances,
});
// Recorded with each sandbox this instance owns: where the others forward its preview and terminal.
setInternalUrl(config.instances.internalUrl, { host: config.host, port: server.port! });
// Local sandboxes: install the templates' dependencies once now, so the first project to use one gets the fast
// copy (SANDBOX_WARM_TEMPLATES; the E2B provider has no shared cache and ignores this).
parts.deps.sandboxes.warmTemplates(config.sandboxWarmTemplates);

if (config.auth.mode === "emulator") {
  const bar = "!".repeat(78);
  console.log(
    `\n${bar}\n  SIGN-IN IS EMULATED: the Firebase Auth emulator at ${config.auth.emulatorHost} accepts any account.\n` +
      `  Fine on your own machine; for real users set FIREBASE_PROJECT_ID and FIREBASE_API_KEY.\n${bar}\n`,
  );
}
console.log(`Listening on http://${config.host === "0.0.0.0" ? "localhost" : config.host}:${server.port}`);
// Locally the app is opened on app.localhost, the site its previews share (lib/config/preview.ts).
console.log(`Open ${config.publicUrl ?? `http://${config.preview.domain === LOCAL_APP_HOST ? LOCAL_APP_HOST : "localhost"}:${server.port}`}`);

// Prometheus's own port, off the public one; it keeps answering while a shutdown drains.
if (config.metricsPort !== null) {
  try {
    const metrics = serveMetrics({ port: config.metricsPort, hostname: config.host });
    console.log(`Metrics on http://${config.host === "0.0.0.0" ? "localhost" : config.host}:${metrics.port}/metrics`);
  } catch (error) {
    console.error(
      `\nCannot serve metrics on ${config.host}:${config.metricsPort} (${error instanceof Error ? error.message : String(error)}). ` +
        "Another process (or a second instance on this host) may use that port: set METRICS_PORT to a free port, or METRICS_PORT=off.\n",
    );
    // Nothing has been served yet: close what started (the embedded database among them) before leaving.
    server.stop(true);
    await parts.close();
    process.exit(1);
  }
}

const { drainTimeoutMs } = config;
let stopping = false;
async function shutdown(signal: string) {
  // One shutdown however many signals arrive: a process-group SIGTERM (systemd, Ctrl-C) reaches this process
  // and, forwarded by `bun run`, reaches it again. Taking a repeat as "exit now" would drop the running
  // answers unsaved; the deadline below bounds a stuck shutdown instead (SIGKILL forces it sooner).
  if (stopping) {
    logger.info("shutdown already under way; signal ignored", { signal });
    return;
  }
  stopping = true;
  logger.info("shutting down", { signal });
  // A stuck step must not keep the process (and the deploy) waiting forever: publish builds get
  // DRAIN_TIMEOUT_S, the rest of the shutdown (requests, sandboxes, the database) 15 s more.
  setTimeout(() => {
    logger.error("shutdown took too long; exiting");
    process.exit(1);
  }, drainTimeoutMs + 15_000).unref();
  try {
    await shutdownGracefully({ server: server as Server<unknown>, parts: parts!, logger });
  } catch (error) {
    logger.error("shutdown failed", { error: String(error) });
    process.exit(1);
  }
  process.exit(0);
}
process.on("SIGTERM", () => void shutdown("SIGTERM"));
onParentGone = () => void shutdown("parent exited");
process.on("SIGINT", () => void shutdown("SIGINT"));
