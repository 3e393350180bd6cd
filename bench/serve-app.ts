/**
 * Bench subprocess: the real app, started as `bun run start` starts it (startParts → createApp → serveHttp)
 * with Firebase-mode sign-in, except that token keys come from the bench's local JWKS server instead of
 * Google's. Prints one JSON line `{"port": N}` on stdout when it is listening.
 *
 * Usage: bun bench/serve-app.ts '{"databaseUrl":"postgres://…","jwksUrl":"http://127.0.0.1:N/keys","projectId":"bench-…","tokenCache":true}'
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApp } from "../api/src/app";
import { createTokenVerifier } from "../api/src/auth/verify-token";
import { serveHttp } from "../api/src/http-server";
import { loadConfig } from "../api/src/lib/config";
import { createLogger } from "../api/src/lib/logger";
import { startParts } from "../api/src/server";

const { databaseUrl, jwksUrl, projectId, tokenCache } = JSON.parse(process.argv[2] ?? "{}") as {
  databaseUrl: string;
  jwksUrl: string;
  projectId: string;
  tokenCache: boolean;
};

// Built from an explicit env, so variables of the shell running the bench (e.g. FIREBASE_AUTH_EMULATOR_HOST) don't leak in.
const dataDir = mkdtempSync(join(tmpdir(), "bench-app-"));
const config = loadConfig({
  DATABASE_URL: databaseUrl,
  FIREBASE_PROJECT_ID: projectId,
  FIREBASE_API_KEY: "bench-api-key",
  DATA_DIR: dataDir,
  LOG_LEVEL: "warn",
});
const logger = createLogger(config.logLevel, (line) => console.error(line));
const parts = await startParts(config, logger, { webDist: null });
const verifyToken = createTokenVerifier(config.auth, { jwksUrl, ...(tokenCache ? {} : { cacheSize: 0 }) });
const app = createApp({ ...parts.deps, verifyToken });

const server = serveHttp({ hostname: "127.0.0.1", port: 0, fetch: app.fetch, hub: parts.hub, preview: parts.preview });
console.log(JSON.stringify({ port: server.port }));

process.on("SIGTERM", async () => {
  await server.stop(true);
  await parts.close();
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(0);
});
