/**
 * The local sign-in backend: runs the Firebase Auth emulator from the installed firebase-tools as a child of the
 * API, or reuses one already listening. (The emulator REST calls tests use are in test/emulator-sign-in.ts.)
 *
 * @example
 * const emulator = await startAuthEmulator({ projectId: "demo-app-builder", dataDir, log });
 * await emulator.stop();
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import type { Logger } from "../lib/logger";

export type AuthEmulatorOptions = {
  projectId: string;
  /** Loopback only: emulated sign-in lets anyone be anyone. */
  host?: string;
  port?: number;
  /** A folder under it holds the generated firebase.json and the emulator's debug log. */
  dataDir: string;
  log: Logger;
  startTimeoutMs?: number;
};

export type AuthEmulator = { stop(): Promise<void>; reused: boolean };

const LOOPBACK = new Set(["127.0.0.1", "localhost"]);
const POLL_MS = 250;
const STOP_GRACE_MS = 5_000;

// Ends the emulator once its parent is gone, even when the parent was SIGKILLed and no exit handler ran.
const WATCHDOG = `const parent = process.ppid;
setInterval(() => { if (process.ppid !== parent) process.exit(0); }, 1000).unref();
`;

export async function startAuthEmulator(options: AuthEmulatorOptions): Promise<AuthEmulator> {
  const { projectId, host = "127.0.0.1", port = 9099, dataDir, log, startTimeoutMs = 90_000 } = options;
  if (!LOOPBACK.has(host)) throw new Error(`The Auth emulator must listen on loopback (127.0.0.1), not ${host}.`);
  // The emulator listens on IPv4 only, so always talk to 127.0.0.1 (localhost may resolve to ::1 first).
  const address = `127.0.0.1:${port}`;
  const fixHint = `start one yourself (bunx firebase emulators:start --only auth --project ${projectId}) and set FIREBASE_AUTH_EMULATOR_HOST=${address}, or set FIREBASE_PROJECT_ID and FIREBASE_API_KEY for real Google sign-in`;

  const found = await probe(address);
  if (found === "auth-emulator") {
    log.info("reusing the Firebase Auth emulator already running", { address });
    return { reused: true, stop: async () => {} };
  }
  if (found === "other") throw new Error(`Port ${port} on 127.0.0.1 is taken by something that is not the Firebase Auth emulator: free it, or ${fixHint}.`);

  const folder = join(dataDir, "auth-emulator");
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  const config = { emulators: { auth: { host: "127.0.0.1", port }, ui: { enabled: false } } };
  writeFileSync(join(folder, "firebase.json"), `${JSON.stringify(config, null, 2)}\n`);
  writeFileSync(join(folder, "watchdog.cjs"), WATCHDOG);

  const cli = join(dirname(fileURLToPath(import.meta.resolve("firebase-tools/package.json"))), "lib/bin/firebase.js");
  const started = Date.now();
  log.info("starting the Firebase Auth emulator", { address, projectId });
  const child = spawn("node", ["--require", join(folder, "watchdog.cjs"), cli, "emulators:start", "--only", "auth", "--project", projectId], {
    cwd: folder,
    env: childEnv(folder),
    stdio: ["ignore", "pipe", "pipe"],
  });

  const recent: string[] = [];
  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: stream! }).on("line", (line) => {
      if (line.trim() === "") return;
      recent.push(line);
      if (recent.length > 15) recent.shift();
      log.debug("auth emulator", { line });
    });
  }
  const exited = new Promise<number | null>((resolve) => {
    child.once("exit", (code) => resolve(code));
    child.once("error", () => resolve(null)); // e.g. no `node` on PATH: spawn fails, no exit event
  });
  let spawnError: Error | undefined;
  child.once("error", (err) => (spawnError = err));
  const killOnExit = () => child.kill("SIGKILL");
  process.on("exit", killOnExit);

  const stop = async () => {
    process.off("exit", killOnExit);
    if (child.exitCode !== null || child.signalCode !== null || spawnError) return;
    child.kill("SIGTERM"); // firebase-tools shuts its emulators down cleanly on SIGTERM
    const timer = setTimeout(() => child.kill("SIGKILL"), STOP_GRACE_MS);
    await exited;
    clearTimeout(timer);
  };

  const gaveUp = new AbortController();
  const outcome = await Promise.race([waitUntilReady(address, started + startTimeoutMs, gaveUp.signal), exited.then(() => "exited" as const)]);
  gaveUp.abort();
  if (outcome === "ready") {
    log.info("Firebase Auth emulator ready", { address, ms: Date.now() - started });
    return { reused: false, stop };
  }
  await stop();
  const why = spawnError
    ? `could not run node (${spawnError.message}); Node.js 20+ must be on PATH`
    : outcome === "exited"
      ? `it exited early (details in ${join(folder, "firebase-debug.log")}):\n  ${recent.join("\n  ")}`
      : `it did not answer at ${address} within ${Math.round(startTimeoutMs / 1000)} s`;
  throw new Error(`The Firebase Auth emulator did not start: ${why}\nTo fix it, ${fixHint}.`);
}

/** What answers at the address: the Auth emulator (its root says `authEmulator`), something else, or nothing. */
async function probe(address: string): Promise<"auth-emulator" | "other" | "nothing"> {
  try {
    const res = await fetch(`http://${address}/`, { signal: AbortSignal.timeout(1_000) });
    const body = (await res.json().catch(() => null)) as { authEmulator?: unknown } | null;
    return body?.authEmulator ? "auth-emulator" : "other";
  } catch {
    return "nothing";
  }
}

async function waitUntilReady(address: string, deadline: number, cancelled: AbortSignal): Promise<"ready" | "timeout"> {
  while (Date.now() < deadline && !cancelled.aborted) {
    if ((await probe(address)) === "auth-emulator") return "ready";
    await Bun.sleep(POLL_MS);
  }
  return "timeout";
}

/** Offline-friendly: no update check, no message-of-the-day fetch, and the hub locator kept out of the shared /tmp. */
function childEnv(folder: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    // An inherited *_EMULATOR_HOST would point the CLI at some other emulator.
    if (v !== undefined && !/^FIREBASE_.*_EMULATOR_HOST$|^FIRESTORE_EMULATOR_HOST$/.test(k)) env[k] = v;
  }
  return { ...env, CI: "true", NO_UPDATE_NOTIFIER: "1", FIREBASE_CLI_DISABLE_UPDATE_CHECK: "true", TMPDIR: folder };
}
