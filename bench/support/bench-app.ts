/**
 * The real server pieces (startParts + serveHttp, as `bun run start` wires them) in the bench's own process,
 * on a temp DATA_DIR with embedded PGlite and a local store. Sign-in is emulator mode with minted tokens:
 * FIREBASE_AUTH_EMULATOR_HOST names a port nothing listens on, so no emulator runs and tokens are checked
 * offline. `api` calls a route as the bench's one user.
 *
 * @example
 * const app = await startBenchApp("bench-preview-", { SANDBOX_IDLE_MINUTES: "30" });
 * try {
 *   const projectId = await app.project("events");
 *   await app.api("POST", `/api/files/${projectId}`, { path: "a.txt", content: "x" });
 * } finally {
 *   await app.close();
 * }
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { serveHttp } from "../../api/src/http-server";
import { loadConfig, type Config } from "../../api/src/lib/config";
import { createLogger } from "../../api/src/lib/logger";
import { startParts, type RunningParts } from "../../api/src/start-parts";
import { emulatorToken } from "../../api/src/test/emulator-tokens";
import { callApi } from "../../e2e/support/api";
import { freePort } from "../../e2e/support/free-port";

export const BENCH_FIREBASE_PROJECT = "demo-bench";

export type BenchApp = {
  config: Config;
  parts: RunningParts;
  port: number;
  /** http://127.0.0.1:<port> */
  base: string;
  uid: string;
  token: string;
  /** A JSON request as the bench user; throws on a status other than 2xx. */
  api<T = unknown>(method: string, route: string, body?: unknown): Promise<T>;
  /** A new project of the bench user's; its id. */
  project(name: string): Promise<string>;
  close(): Promise<void>;
};

/**
 * `env` is laid over the bench defaults (data folder, port, emulator-mode sign-in, LOG_LEVEL=warn);
 * `localSandbox` over the local provider's options (seccomp off, to measure what it costs).
 */
export async function startBenchApp(prefix: string, env: Record<string, string> = {}, localSandbox: { seccomp?: boolean } = {}): Promise<BenchApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  fs.chmodSync(dataDir, 0o711); // sandbox users reach their folders under it
  const port = await freePort();
  const config = loadConfig({
    DATA_DIR: dataDir,
    PORT: String(port),
    FIREBASE_PROJECT_ID: BENCH_FIREBASE_PROJECT,
    FIREBASE_AUTH_EMULATOR_HOST: `127.0.0.1:${await freePort()}`,
    LOG_LEVEL: "warn",
    // A bench makes sandboxes faster than a person: the per-user start limit would cut its runs short.
    RATE_LIMIT_SANDBOX_PER_MINUTE: "0",
    ...env,
  });
  const parts = await startParts(config, createLogger("warn"), { webDist: null, localSandbox });
  const server = serveHttp({ port, hostname: "127.0.0.1", fetch: parts.app.fetch, hub: parts.hub, preview: parts.preview, pty: parts.pty, sites: parts.sites });
  const base = `http://127.0.0.1:${port}`;
  const uid = "bench-user";
  const token = emulatorToken(BENCH_FIREBASE_PROJECT, { uid, email: "bench@example.com", name: "Bench" });

  const api = <T>(method: string, route: string, body?: unknown) => callApi<T>(base, token, method, route, body);

  return {
    config,
    parts,
    port,
    base,
    uid,
    token,
    api,
    project: async (name) => (await api<{ id: string }>("POST", "/api/projects", { name })).id,
    async close() {
      server.stop(true);
      await parts.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Polls the preview at `host` (through the app's preview proxy) until it answers 200; returns that body. */
export async function untilPreviewAnswers(base: string, host: string, options: { timeoutMs: number; pollMs: number }): Promise<string> {
  const deadline = Date.now() + options.timeoutMs;
  for (;;) {
    const res = await fetch(`${base}/`, { headers: { host } }).catch(() => null);
    const body = await res?.text();
    if (res?.status === 200) return body!;
    if (Date.now() > deadline) throw new Error(`no 200 from ${host} within ${options.timeoutMs / 1000} s (last: ${res?.status})`);
    await Bun.sleep(options.pollMs);
  }
}
