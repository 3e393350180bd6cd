/**
 * Bench subprocess: the real app as `bun run start` runs it (startParts → serveHttp), talking to the bench's
 * scripted model, with emulator-mode sign-in (unsigned test tokens, no emulator process needed) and the
 * database named in the argument (or embedded PGlite). Prints `{"port": N}` when listening.
 *
 * Usage: bun bench/servers/serve-chat-app.ts '{"modelBaseUrl":"http://127.0.0.1:N/v1","databaseUrl":"postgres://…"|null}'
 */
import { serveAppForBench } from "../support/serve-child";

const { modelBaseUrl, databaseUrl } = JSON.parse(process.argv[2] ?? "{}") as { modelBaseUrl: string; databaseUrl: string | null };

await serveAppForBench("bench-chat-", {
  ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  ...(process.env.DATABASE_POOL_MAX ? { DATABASE_POOL_MAX: process.env.DATABASE_POOL_MAX } : {}),
  OPENAI_BASE_URL: modelBaseUrl,
  OPENAI_API_KEY: "bench",
  OPENAI_MODEL: "bench-model",
  FIREBASE_AUTH_EMULATOR_HOST: "127.0.0.1:9",
  FIREBASE_PROJECT_ID: "demo-bench",
});
