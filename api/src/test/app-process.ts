/**
 * The real app as a child process (`bun api/src/index.ts`, as `bun run start` runs it) for tests that need
 * signals, several instances or a proxy in front: emulator-mode sign-in (tokens from `emulatorToken`), a
 * temp DATA_DIR, port 0, and its JSON log lines collected so tests can find a request id in them.
 *
 * @example
 * const db = await scratchDatabase();           // a fresh database on TEST_DATABASE_URL, or null
 * const app = await startAppProcess({ DATABASE_URL: db!.url });
 * const res = await fetch(`${app.url}/api/health`);
 * app.kill("SIGTERM"); expect(await app.exited).toBe(0);
 */
import { chmodSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { Subprocess } from "bun";
import postgres from "postgres";
import { emulatorToken } from "./emulator-tokens";

const ENTRY = resolve(import.meta.dir, "../index.ts");
export const PROCESS_PROJECT_ID = "demo-process-test";

export type AppProcess = {
  url: string;
  port: number;
  dataDir: string;
  proc: Subprocess<"ignore", "pipe", "pipe">;
  /** Every line the process printed so far (stdout and stderr). */
  lines: string[];
  exited: Promise<number>;
  kill(signal: NodeJS.Signals): void;
  /** Signals the whole process group (as systemd or Ctrl-C do); only with `ownGroup`. */
  killGroup(signal: NodeJS.Signals): void;
  /** Resolves with the first line (already printed or to come) that `pred` accepts. */
  waitForLine(pred: (line: string) => boolean, ms?: number): Promise<string>;
};

/** A port nothing listens on (for FIREBASE_AUTH_EMULATOR_HOST: emulator tokens are checked offline). */
export function unusedPort(): number {
  const s = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
  const port = s.port!;
  s.stop(true);
  return port;
}

/** The secrets key of every app process a test starts on a shared database. */
export const TEST_SECRETS_KEY = Buffer.alloc(32, 7).toString("base64");
/** The instance secret of every app process a test starts on a shared database. */
export const TEST_INSTANCE_SECRET = "test-instance-secret-0123456789";

export async function startAppProcess(
  env: Record<string, string> = {},
  options: {
    dataDir?: string;
    startMs?: number;
    /** Start through `bun run start` (a package.json script, as the README does) instead of `bun index.ts`. */
    viaBunRun?: boolean;
    /** In a process group of its own (setsid), so `killGroup` reaches every process of it at once. */
    ownGroup?: boolean;
  } = {},
): Promise<AppProcess> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), "app-process-"));
  // Local sandboxes run as other uids, which must be able to reach their folders under it.
  chmodSync(dataDir, 0o711);
  let command = ["bun", ENTRY];
  if (options.viaBunRun) {
    // The repository's own start script, run from a folder holding only a package.json that names it.
    const start = (await Bun.file(resolve(import.meta.dir, "../../../package.json")).json()).scripts.start as string;
    await Bun.write(join(dataDir, "package.json"), JSON.stringify({ scripts: { start: start.replace("api/src/index.ts", ENTRY) } }));
    command = ["bun", "run", "start"];
  }
  // setsid execs in place (the child is not a group leader), so the pid stays the group's id.
  if (options.ownGroup) command = ["setsid", ...command];
  const proc = Bun.spawn(command, {
    // Not the repository: Bun would load a developer's .env from there.
    cwd: dataDir,
    // Only what the app needs: variables of the shell running the tests (DATABASE_URL…) must not leak in.
    env: {
      EXIT_WITH_PARENT: String(process.pid),
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: process.env.HOME ?? dataDir,
      HOST: "127.0.0.1",
      PORT: "0",
      DATA_DIR: dataDir,
      FIREBASE_AUTH_EMULATOR_HOST: `127.0.0.1:${unusedPort()}`,
      FIREBASE_PROJECT_ID: PROCESS_PROJECT_ID,
      LOG_LEVEL: "info",
      // Several instances run side by side: metrics only where a test asks for them (a port of its own).
      METRICS_PORT: "off",
      // Instances sharing a database must share the secrets key (start-up stops without one).
      ...(env.DATABASE_URL ? { SECRETS_KEY: TEST_SECRETS_KEY, INSTANCE_SECRET: TEST_INSTANCE_SECRET } : {}),
      ...env,
    },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const lines: string[] = [];
  const watchers = new Set<(line: string) => void>();
  const pump = async (stream: ReadableStream<Uint8Array>) => {
    const decoder = new TextDecoder();
    let buffer = "";
    const reader = stream.getReader();
    for (let r = await reader.read(); !r.done; r = await reader.read()) {
      const chunk = r.value;
      buffer += decoder.decode(chunk, { stream: true });
      let end: number;
      while ((end = buffer.indexOf("\n")) !== -1) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 1);
        lines.push(line);
        for (const w of watchers) w(line);
      }
    }
  };
  void pump(proc.stdout);
  void pump(proc.stderr);

  const waitForLine = (pred: (line: string) => boolean, ms = 10_000) =>
    new Promise<string>((resolve, reject) => {
      const found = lines.find(pred);
      if (found !== undefined) return resolve(found);
      const timer = setTimeout(() => {
        watchers.delete(watch);
        reject(new Error(`no matching line within ${ms} ms; the process printed:\n${lines.slice(-40).join("\n")}`));
      }, ms);
      const watch = (line: string) => {
        if (!pred(line)) return;
        clearTimeout(timer);
        watchers.delete(watch);
        resolve(line);
      };
      watchers.add(watch);
    });

  const exited = proc.exited;
  const listening = await Promise.race([
    // A fresh data folder runs PGlite's initdb (5 s idle, far more on a busy machine) before the app listens.
    waitForLine((l) => l.startsWith("Listening on http://"), options.startMs ?? 50_000),
    exited.then((code) => {
      throw new Error(`the app exited with ${code} before listening:\n${lines.join("\n")}`);
    }),
  ]);
  const port = Number(/:(\d+)\s*$/.exec(listening)![1]);
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    dataDir,
    proc,
    lines,
    exited,
    kill: (signal) => proc.kill(signal),
    killGroup: (signal) => {
      if (!options.ownGroup) throw new Error("killGroup needs startAppProcess(…, { ownGroup: true })");
      process.kill(-proc.pid, signal);
    },
    waitForLine,
  };
}

/** An ID token the child processes accept, and the uid it names. */
export function processUser(name: string): { uid: string; token: string; auth: { authorization: string } } {
  const uid = `${name}-${crypto.randomUUID()}`;
  const token = emulatorToken(PROCESS_PROJECT_ID, { uid, email: `${name}@example.com`, name });
  return { uid, token, auth: { authorization: `Bearer ${token}` } };
}

/** A fresh, empty database on TEST_DATABASE_URL's server (null when unset); `drop` removes it. */
export async function scratchDatabase(): Promise<{ url: string; drop(): Promise<void> } | null> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) return null;
  const name = `app_test_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const drop = postgres(adminUrl, { max: 1, onnotice: () => {} });
      await drop.unsafe(`drop database if exists ${name} with (force)`).catch(() => {});
      await drop.end();
    },
  };
}
