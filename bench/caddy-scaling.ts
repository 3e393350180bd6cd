/**
 * `bun bench/caddy-scaling.ts`: how the app scales behind Caddy on this machine, all in one run.
 *
 * 1. Throughput of the authenticated `GET /api/projects` (wrk) straight to one instance, through Caddy with
 *    one instance behind it, and through Caddy with two instances behind it (round robin). The two-to-one
 *    ratio shows what a second instance buys on this many cores, where wrk, Caddy, PostgreSQL and the
 *    instances all share them.
 * 2. WebSocket fan-out: N clients connected through Caddy (spread over both instances) watch one project;
 *    a file is written through the API; how many clients receive the file event within 100 ms of the write
 *    being sent, for N = 100, 500, 1000.
 *
 * The app runs as `bun run start` runs it (real processes, emulator-mode sign-in: tokens are checked
 * without a signature, so this measures the app, Caddy and the database rather than RS256).
 * Options: --seconds N (default 10), --connections N (default 50), --clients 100,500,1000, --writes N (default 3).
 * Database: TEST_DATABASE_URL, else DATABASE_URL, else postgres://postgres@127.0.0.1:5432/postgres.
 */
import { rmSync } from "node:fs";
import { parseArgs } from "node:util";
import { redactUrl } from "../api/src/lib/config";
import { emulatorToken } from "../api/src/test/emulator-tokens";
import { PROCESS_PROJECT_ID, startAppProcess, unusedPort, type AppProcess } from "../api/src/test/app-process";
import { createBenchDb, seed } from "./support/bench-db";
import { startCaddy } from "../api/src/test/caddy-process";
import { requireCaddy } from "./support/caddy";
import { subscribeToProject } from "./support/project-socket";
import { runBench, type Cleanups } from "./support/run-bench";
import { atFraction, loadAverage, warnIfBusy } from "./support/stats";
import { ensureWrk, runWrk, type WrkResult } from "./support/wrk";

const { values: opts } = parseArgs({
  options: {
    seconds: { type: "string", default: "10" },
    connections: { type: "string", default: "50" },
    clients: { type: "string", default: "100,500,1000" },
    writes: { type: "string", default: "3" },
  },
});
const seconds = Number(opts.seconds);
const connections = Number(opts.connections);
const clientCounts = opts.clients.split(",").map(Number);
const writes = Number(opts.writes);
const WARMUP_SECONDS = 3;
const FANOUT_MS = 100;
const OWNER = "bench-owner";
const adminUrl = process.env.TEST_DATABASE_URL || process.env.DATABASE_URL || "postgres://postgres@127.0.0.1:5432/postgres";

const token = emulatorToken(PROCESS_PROJECT_ID, { uid: OWNER, email: `${OWNER}@example.com`, name: "Bench Owner", expiresInSec: 3600 });
const auth = { authorization: `Bearer ${token}` };

async function main(cleanups: Cleanups) {
  const loadBefore = loadAverage();
  await ensureWrk();
  requireCaddy();
  console.log(`Database: a fresh database on ${redactUrl(adminUrl)}`);
  const db = await createBenchDb(adminUrl);
  cleanups.push(() => db.drop());
  await seed(db.url, OWNER, 20);

  const env = { DATABASE_URL: db.url, LOG_LEVEL: "warn", NODE_ENV: "production" };
  // Each instance's metrics on a port of its own (METRICS_PORT), read below for the sockets per instance.
  const metricsPorts = [unusedPort(), unusedPort()];
  const instances = await Promise.all(metricsPorts.map((port) => startAppProcess({ ...env, METRICS_PORT: String(port) })));
  for (const i of instances) cleanups.push(() => stopProcess(i));
  const one = await caddyInFront([instances[0]!], cleanups);
  const two = await caddyInFront(instances, cleanups);

  // Every path must answer the same list before its speed means anything.
  const expected = JSON.stringify(await list(`${instances[0]!.url}/api/projects`));
  for (const url of [`${one}/api/projects`, `${two}/api/projects`]) {
    if (JSON.stringify(await list(url)) !== expected) throw new Error(`${url} answered a different list`);
  }

  console.log(`\nGET /api/projects (20 projects), wrk -t2 -c${connections} -d${seconds}s after a ${WARMUP_SECONDS} s warm-up each`);
  const direct = await measure("one instance, direct (no Caddy)", `${instances[0]!.url}/api/projects`);
  const viaOne = await measure("Caddy -> one instance", `${one}/api/projects`);
  const viaTwo = await measure("Caddy -> two instances (round robin)", `${two}/api/projects`);
  console.log(`\n${"".padEnd(40)} ${"req/s".padStart(8)} ${"p50 ms".padStart(8)} ${"p99 ms".padStart(8)}`);
  for (const [name, r] of [
    ["one instance, direct", direct],
    ["Caddy -> one instance", viaOne],
    ["Caddy -> two instances", viaTwo],
  ] as const) {
    console.log(`${name.padEnd(40)} ${r.requestsPerSec.toFixed(0).padStart(8)} ${r.p50Ms.toFixed(2).padStart(8)} ${r.p99Ms.toFixed(2).padStart(8)}`);
  }
  console.log(`two instances / one instance through Caddy: ${(viaTwo.requestsPerSec / viaOne.requestsPerSec).toFixed(2)}x`);
  console.log(`Caddy's cost with one instance: ${((1 - viaOne.requestsPerSec / direct.requestsPerSec) * 100).toFixed(0)}% of direct req/s`);

  const [project] = (await list(`${instances[0]!.url}/api/projects`)) as { id: string }[];
  console.log(`\nWebSocket fan-out through Caddy -> two instances: clients receiving a file event within ${FANOUT_MS} ms of the write being sent`);
  console.log(
    `${"clients".padStart(8)} ${"on A/B".padStart(10)} ${"write".padStart(6)} ${`<=${FANOUT_MS} ms`.padStart(10)} ${"p50 ms".padStart(8)} ${"p99 ms".padStart(8)} ${"max ms".padStart(8)}`,
  );
  for (const n of clientCounts) await fanOut(two, project!.id, n, metricsPorts);
  console.log(`
All on this machine (${navigator.hardwareConcurrency} cores) in one run: wrk, Caddy, PostgreSQL, both instances and the
WebSocket clients share the cores, so two instances cannot double one instance's throughput here; the ratio
shows what a second instance buys on a machine this size. Fan-out times are measured in one client process,
which handles the N arrivals one after another: its own event loop adds to the later clients' times.`);
  warnIfBusy(loadBefore, "the req/s figures are noisy. Re-run on a quiet machine to compare.");
}

async function measure(name: string, url: string): Promise<WrkResult> {
  process.stdout.write(`wrk ${name}: `);
  await runWrk({ url, connections, seconds: WARMUP_SECONDS, headers: auth });
  const r = await runWrk({ url, connections, seconds, headers: auth });
  if (r.non2xx > 0) throw new Error(`${name}: ${r.non2xx} responses were not 2xx:\n${r.raw}`);
  console.log(`${r.requestsPerSec.toFixed(0)} req/s${r.socketErrors ? ` (${r.socketErrors} socket errors)` : ""}`);
  return r;
}

async function fanOut(site: string, projectId: string, n: number, metricsPorts: number[]) {
  type Client = { ws: WebSocket; got: Map<string, number> };
  const clients: Client[] = [];
  const wsUrl = `${site.replace("http", "ws")}/api/ws`;
  for (let i = 0; i < n; i += 50) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(50, n - i) }, async () => {
        const got = new Map<string, number>();
        const ws = await subscribeToProject(wsUrl, token, projectId, (m, at) => {
          if ("file" in m) got.set(m.file.path, at);
        });
        return { ws, got };
      }),
    );
    clients.push(...batch);
  }
  // Where Caddy put them: each instance's own metrics count its sockets.
  const perInstance = await Promise.all(
    metricsPorts.map(async (port) => /app_websocket_clients (\d+)/.exec(await (await fetch(`http://127.0.0.1:${port}/metrics`)).text())?.[1] ?? "?"),
  );

  for (let w = 1; w <= writes; w++) {
    const path = `fanout/${n}-${w}-${crypto.randomUUID().slice(0, 8)}.txt`;
    const sent = performance.now();
    const res = await fetch(`${site}/api/files/${projectId}`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify({ path, content: "x" }),
    });
    if (res.status !== 201) throw new Error(`write answered ${res.status}: ${await res.text()}`);
    const deadline = performance.now() + 5_000;
    while (clients.some((c) => !c.got.has(path)) && performance.now() < deadline) await Bun.sleep(5);
    const times = clients.map((c) => (c.got.get(path) ?? Infinity) - sent).sort((a, b) => a - b);
    const within = times.filter((t) => t <= FANOUT_MS).length;
    const pct = (p: number) => atFraction(times, p / 100);
    const fmt = (t: number) => (Number.isFinite(t) ? t.toFixed(1) : "lost");
    console.log(
      `${String(n).padStart(8)} ${perInstance.join("/").padStart(10)} ${String(w).padStart(6)} ${`${within}/${n}`.padStart(10)} ${fmt(pct(50)).padStart(8)} ${fmt(pct(99)).padStart(8)} ${fmt(times.at(-1)!).padStart(8)}`,
    );
  }
  for (const c of clients) c.ws.close();
  await Bun.sleep(300);
}

/** Caddy with the repository's Caddyfile, balancing over `upstreams`; its site URL. */
async function caddyInFront(upstreams: AppProcess[], cleanups: Cleanups): Promise<string> {
  const caddy = await startCaddy(upstreams.map((i) => `127.0.0.1:${i.port}`));
  cleanups.push(() => caddy.stop());
  return caddy.url;
}

async function stopProcess(p: AppProcess) {
  p.kill("SIGTERM");
  const killer = setTimeout(() => p.kill("SIGKILL"), 10_000);
  await p.exited;
  clearTimeout(killer);
  rmSync(p.dataDir, { recursive: true, force: true });
}

async function list(url: string): Promise<unknown[]> {
  const res = await fetch(url, { headers: auth });
  if (!res.ok) throw new Error(`${url} answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as unknown[];
}

await runBench(main);
