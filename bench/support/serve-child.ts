/**
 * The child side of startChildServer for the real app: started as `bun run start` starts it (startParts →
 * serveHttp) on port 0 and a temp DATA_DIR, from an explicit env so variables of the shell running the bench
 * (e.g. FIREBASE_AUTH_EMULATOR_HOST) don't leak in. Prints `{"port": N}` when listening; SIGTERM stops it and
 * removes the folder.
 *
 * @example
 * await serveAppForBench("bench-chat-", { OPENAI_BASE_URL: modelBaseUrl, FIREBASE_AUTH_EMULATOR_HOST: "127.0.0.1:9" });
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serveHttp } from "../../api/src/http-server";
import { loadConfig, type Config } from "../../api/src/lib/config";
import { createLogger } from "../../api/src/lib/logger";
import { startParts, type RunningParts } from "../../api/src/start-parts";

export async function serveAppForBench(
  prefix: string,
  env: Record<string, string>,
  /** The app to serve, when not the one startParts built (e.g. with another token verifier). */
  fetchOf: (parts: RunningParts, config: Config) => (req: Request) => Response | Promise<Response> = (parts) => parts.app.fetch,
): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), prefix));
  // A shared database needs SECRETS_KEY (start-up stops without one); a bench's instances share this one.
  const config = loadConfig({
    ...(env.DATABASE_URL ? { SECRETS_KEY: Buffer.alloc(32, 7).toString("base64"), INSTANCE_SECRET: "bench-instance-secret-0123456789" } : {}),
    ...env,
    DATA_DIR: dataDir,
    LOG_LEVEL: "warn",
  });
  const logger = createLogger(config.logLevel, (line) => console.error(line));
  const parts = await startParts(config, logger, { webDist: null });
  const server = serveHttp({ hostname: "127.0.0.1", port: 0, fetch: fetchOf(parts, config), hub: parts.hub, preview: parts.preview });
  console.log(JSON.stringify({ port: server.port }));

  process.on("SIGTERM", async () => {
    await server.stop(true);
    await parts.close();
    rmSync(dataDir, { recursive: true, force: true });
    process.exit(0);
  });
}
