/**
 * Runs the real app (`bun api/src/index.ts`) as a child process for browser tests, with embedded defaults
 * (PGlite, local storage) in a throw-away data folder and sign-in pointed at a given Auth emulator.
 */
import { sharedTemplateCacheDir } from "./template-cache";
import { REPO_ROOT } from "./web-build";

export type AppServer = { url: string; pid: number; output(): string; stop(): Promise<void> };

// Settings from the caller's shell that would switch the app away from its embedded defaults.
const FOREIGN_SETTINGS = /^(DATABASE_URL|S3_|AWS_|FIREBASE_|OPENAI_|SANDBOX_PROVIDER|E2B_|SEARXNG_URL|HOST|PUBLIC_URL|PORT|METRICS_PORT|DATA_DIR)/;

export async function startApp(options: {
  port: number;
  dataDir: string;
  /** The Auth emulator's host:port and demo project; left out, the command starts an emulator of its own. */
  emulatorHost?: string;
  projectId?: string;
  timeoutMs?: number;
  /** Extra settings for this app only, e.g. OPENAI_BASE_URL pointing at the fake model server. */
  env?: Record<string, string>;
  /** What to run instead of the API alone (`bun scripts/dev.ts`, whose API answers on the same port). */
  command?: string[];
}): Promise<AppServer> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !FOREIGN_SETTINGS.test(k)) env[k] = v;
  Object.assign(env, {
    EXIT_WITH_PARENT: String(process.pid),
    PORT: String(options.port),
    DATA_DIR: options.dataDir,
    ...(options.emulatorHost ? { FIREBASE_AUTH_EMULATOR_HOST: options.emulatorHost, FIREBASE_PROJECT_ID: options.projectId ?? "" } : {}),
    // Browser tests that do not apply templates must not pay for an npm install at start; those that do say so.
    SANDBOX_WARM_TEMPLATES: "none",
    // Likewise no spare project database kept started (a PGlite start each app would pay for nothing).
    APP_DATABASE_SPARE: "0",
    // Browser tests run apps side by side: none may take the shared default metrics port.
    METRICS_PORT: "off",
    SANDBOX_TEMPLATE_CACHE_DIR: sharedTemplateCacheDir(),
    ...options.env,
  });

  const child = Bun.spawn(options.command ?? ["bun", "api/src/index.ts"], { cwd: REPO_ROOT, env, stdout: "pipe", stderr: "pipe" });
  let log = "";
  const collect = async (stream: ReadableStream<Uint8Array>) => {
    const reader = stream.getReader();
    const decoder = new TextDecoder();
    for (let r = await reader.read(); !r.done; r = await reader.read()) log += decoder.decode(r.value, { stream: true });
  };
  void collect(child.stdout);
  void collect(child.stderr);

  const url = `http://127.0.0.1:${options.port}`;
  // A test process that ends without calling stop() (a shared stack, a crash) must not leave the app running.
  const killOnExit = () => child.kill("SIGKILL");
  process.on("exit", killOnExit);
  const stop = async () => {
    process.off("exit", killOnExit);
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
    await child.exited;
    clearTimeout(timer);
  };
  const server: AppServer = { url, pid: child.pid, output: () => log, stop };

  // A wait, not a timing: a fresh embedded database on a busy 2-core machine has taken over a minute.
  const deadline = Date.now() + (options.timeoutMs ?? 150_000);
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`The app exited with code ${child.exitCode} before it was healthy:\n${log}`);
    const healthy = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(1_000) }).then(
      (r) => r.ok,
      () => false,
    );
    if (healthy) return server;
    await Bun.sleep(200);
  }
  await stop();
  throw new Error(`The app did not answer ${url}/api/health in time:\n${log}`);
}
