/**
 * Bench subprocess: the real app, started as `bun run start` starts it (startParts → createApp → serveHttp)
 * with Firebase-mode sign-in, except that token keys come from the bench's local JWKS server instead of
 * Google's. Prints one JSON line `{"port": N}` on stdout when it is listening.
 *
 * Usage: bun bench/servers/serve-app.ts '{"databaseUrl":"postgres://…","jwksUrl":"http://127.0.0.1:N/keys","projectId":"bench-…","tokenCache":true}'
 */
import { createApp } from "../../api/src/app";
import { createTokenVerifier } from "../../api/src/auth/verify-token";
import { serveAppForBench } from "../support/serve-child";

const { databaseUrl, jwksUrl, projectId, tokenCache } = JSON.parse(process.argv[2] ?? "{}") as {
  databaseUrl: string;
  jwksUrl: string;
  projectId: string;
  tokenCache: boolean;
};

await serveAppForBench("bench-app-", { DATABASE_URL: databaseUrl, FIREBASE_PROJECT_ID: projectId, FIREBASE_API_KEY: "bench-api-key" }, (parts, config) => {
  const verifyToken = createTokenVerifier(config.auth, { jwksUrl, ...(tokenCache ? {} : { cacheSize: 0 }) });
  return createApp({ ...parts.deps, verifyToken }).fetch;
});
