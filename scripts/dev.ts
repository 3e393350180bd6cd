/**
 * `bun run dev`: the API restarted on every change (`bun --watch`) and Vite with hot module reload on
 * http://app.localhost:5173 (the site previews share: web/vite.config.ts), proxying /api (SSE and WebSockets included) to the API on port 3000.
 * The Auth emulator is started once here, so API restarts take a fraction of a second.
 * Ports can be moved (a second checkout, or e2e/dev-server.e2e.test.ts beside a running one): PORT for the
 * API, WEB_PORT for Vite, AUTH_EMULATOR_PORT for the emulator.
 */
import { join } from "node:path";
import { startAuthEmulator } from "../api/src/auth/emulator";
import { createLogger } from "../api/src/lib/logger";

const root = join(import.meta.dir, "..");
const apiPort = process.env.PORT ?? "3000";
const webPort = process.env.WEB_PORT ?? "5173";
const emulatorPort = Number(process.env.AUTH_EMULATOR_PORT ?? 9099);
const env: Record<string, string | undefined> = { ...process.env, PORT: apiPort };

let emulator: Awaited<ReturnType<typeof startAuthEmulator>> | null = null;
if (!process.env.FIREBASE_AUTH_EMULATOR_HOST && !process.env.FIREBASE_PROJECT_ID) {
  emulator = await startAuthEmulator({
    projectId: "demo-app-builder",
    host: "127.0.0.1",
    port: emulatorPort,
    dataDir: join(process.env.DATA_DIR ?? join(root, "data"), "auth-emulator"),
    log: createLogger("info"),
  });
  env.FIREBASE_AUTH_EMULATOR_HOST = `127.0.0.1:${emulatorPort}`;
  env.FIREBASE_PROJECT_ID = "demo-app-builder";
}

const children = [
  Bun.spawn(["bun", "--watch", "api/src/index.ts"], { cwd: root, env, stdout: "inherit", stderr: "inherit" }),
  Bun.spawn(["bunx", "vite", "--config", "web/vite.config.ts", "--port", webPort], {
    cwd: root,
    env: { ...env, API_PORT: apiPort },
    stdout: "inherit",
    stderr: "inherit",
  }),
];
console.log(`\nDev: open http://app.localhost:${webPort} (API on http://127.0.0.1:${apiPort})\n`);

async function stop() {
  for (const child of children) child.kill();
  await Promise.all(children.map((c) => c.exited));
  await emulator?.stop();
  process.exit(0);
}
process.on("SIGINT", () => void stop());
process.on("SIGTERM", () => void stop());
await Promise.race(children.map((c) => c.exited));
await stop();
