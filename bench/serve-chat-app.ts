/**
 * Bench subprocess: the real app as `bun run start` runs it (startParts → serveHttp), talking to the bench's
 * scripted model, with emulator-mode sign-in (unsigned test tokens, no emulator process needed) and the
 * database named in the argument (or embedded PGlite). Prints `{"port": N}` when listening.
 *
 * Usage: bun bench/serve-chat-app.ts '{"modelBaseUrl":"http://127.0.0.1:N/v1","databaseUrl":"postgres://…"|null}'
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serveHttp } from "../api/src/http-server";
import { loadConfig } from "../api/src/lib/config";
import { createLogger } from "../api/src/lib/logger";
import { startParts } from "../api/src/server";

const { modelBaseUrl, databaseUrl } = JSON.parse(process.argv[2] ?? "{}") as { modelBaseUrl: string; databaseUrl: string | null };
const dataDir = mkdtempSync(join(tmpdir(), "bench-chat-"));
const config = loadConfig({
  ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  ...(process.env.DATABASE_POOL_MAX ? { DATABASE_POOL_MAX: process.env.DATABASE_POOL_MAX } : {}),
  OPENAI_BASE_URL: modelBaseUrl,
  OPENAI_API_KEY: "bench",
  OPENAI_MODEL: "bench-model",
  FIREBASE_AUTH_EMULATOR_HOST: "127.0.0.1:9",
  FIREBASE_PROJECT_ID: "demo-bench",
  DATA_DIR: dataDir,
  LOG_LEVEL: "warn",
});
const logger = createLogger(config.logLevel, (line) => console.error(line));
const parts = await startParts(config, logger, { webDist: null });
const server = serveHttp({ hostname: "127.0.0.1", port: 0, fetch: parts.app.fetch, hub: parts.hub, preview: parts.preview });
console.log(JSON.stringify({ port: server.port }));

process.on("SIGTERM", async () => {
  await server.stop(true);
  await parts.close();
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(0);
});
