/** Entry point of `bun run start`: read the configuration, start every part, serve HTTP. */
import { ConfigError, describeConfig, loadConfig } from "./lib/config";
import { createLogger } from "./lib/logger";
import { serveHttp } from "./http-server";
import type { Server } from "bun";
import { startParts } from "./server";
import { shutdownGracefully } from "./shutdown";

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

const server = serveHttp({ port: config.port, hostname: config.host, fetch: parts.app.fetch, hub: parts.hub, preview: parts.preview });
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

let stopping = false;
async function shutdown(signal: string) {
  // One shutdown however many signals arrive: a process-group SIGTERM (systemd, Ctrl-C) reaches this process
  // and, forwarded by `bun run`, reaches it again. Taking a repeat as "exit now" would drop the running
  // answers unsaved; the 25 s deadline below bounds a stuck shutdown instead (SIGKILL forces it sooner).
  if (stopping) {
    logger.info("shutdown already under way; signal ignored", { signal });
    return;
  }
  stopping = true;
  logger.info("shutting down", { signal });
  // A stuck step must not keep the process (and the deploy) waiting forever.
  setTimeout(() => {
    logger.error("shutdown took too long; exiting");
    process.exit(1);
  }, 25_000).unref();
  try {
    await shutdownGracefully({ server: server as Server<unknown>, parts: parts!, logger });
  } catch (error) {
    logger.error("shutdown failed", { error: String(error) });
    process.exit(1);
  }
  process.exit(0);
}
process.on("SIGTERM", () => void shutdown("SIGTERM"));
// Test harnesses set this so an app they started cannot outlive them, even when they are killed outright.
if (process.env.EXIT_WITH_PARENT === "1") {
  const parent = process.ppid;
  setInterval(() => process.ppid !== parent && void shutdown("parent exited"), 1000).unref();
}
process.on("SIGINT", () => void shutdown("SIGINT"));
