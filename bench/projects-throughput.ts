/**
 * `bun run bench`: throughput of the real, signed-in `GET /api/projects` against a bare Hono route running the
 * same SQL, both on the same fresh PostgreSQL database, measured with wrk in one run on one machine.
 * Goal: the real route keeps at least 80% of the baseline's requests per second.
 *
 * The real app runs as `bun run start` runs it, with Firebase-mode sign-in: RS256 ID tokens verified by jose
 * against a local JWKS server this script starts with a key pair it generates. Each server is its own
 * subprocess, so neither shares an event loop with the other, with wrk or with the JWKS server.
 *
 * Options: --seconds N (default 10), --connections N (default 50), --projects N (default 20),
 *          --rounds N (default 1: repeat the pair N times, alternating which goes first, and judge the median ratio),
 *          --no-token-cache (the real app verifies the RS256 signature on every request, to see what the cache saves),
 *          --check (exit 1 when the ratio is under the goal).
 * Database: TEST_DATABASE_URL, else DATABASE_URL, else postgres://postgres@127.0.0.1:5432/postgres.
 */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { exportJWK, generateKeyPair, SignJWT } from "../api/src/auth/jwt";
import { redactUrl } from "../api/src/lib/config";
import { createBenchDb, seed, type BenchDb } from "./support/bench-db";
import { startChildServer } from "./support/child-server";
import { runBench, type Cleanups } from "./support/run-bench";
import { loadAverage, median, warnIfBusy } from "./support/stats";
import { ensureWrk, runWrk, type WrkResult } from "./support/wrk";

const GOAL = 0.8;
const WARMUP_SECONDS = 3;
const POOL_MAX = 10; // the app's DATABASE_POOL_MAX default; the baseline gets the same pool
const PROJECT_ID = "bench-project";
const OWNER = "bench-owner";

const { values: opts } = parseArgs({
  options: {
    seconds: { type: "string", default: "10" },
    connections: { type: "string", default: "50" },
    projects: { type: "string", default: "20" },
    rounds: { type: "string", default: "1" },
    "no-token-cache": { type: "boolean", default: false },
    check: { type: "boolean", default: false },
  },
});
const seconds = Number(opts.seconds);
const connections = Number(opts.connections);
const projectCount = Number(opts.projects);
const roundCount = Number(opts.rounds);
const adminUrl = process.env.TEST_DATABASE_URL || process.env.DATABASE_URL || "postgres://postgres@127.0.0.1:5432/postgres";

type Server = { name: string; url: string; pid: number };
type Measured = WrkResult & { cpuUsPerRequest: number };

async function main(cleanups: Cleanups): Promise<number> {
  const loadBefore = loadAverage();
  await ensureWrk();

  console.log(`Database: a fresh database on ${redactUrl(adminUrl)}`);
  const db: BenchDb = await createBenchDb(adminUrl);
  cleanups.push(() => db.drop());
  await seed(db.url, OWNER, projectCount);

  const { jwksUrl, token } = await startJwks(cleanups);

  const baseline = await spawnServer("baseline", "serve-baseline.ts", { databaseUrl: db.url, ownerId: OWNER, poolMax: POOL_MAX }, cleanups);
  const real = await spawnServer(
    "real app",
    "serve-app.ts",
    { databaseUrl: db.url, jwksUrl, projectId: PROJECT_ID, tokenCache: !opts["no-token-cache"] },
    cleanups,
  );
  const auth = { authorization: `Bearer ${token}` };

  // Both must answer the same list before their speed means anything; the real one must also refuse strangers.
  const expected = await listOf(baseline.url, {});
  const got = await listOf(real.url, auth);
  if (expected.length !== projectCount || JSON.stringify(got) !== JSON.stringify(expected)) {
    throw new Error(`The two servers disagree: baseline ${expected.length} projects, real app ${got.length}.`);
  }
  const anonymous = await fetch(real.url);
  if (anonymous.status !== 401) throw new Error(`The real route answered ${anonymous.status} without a token; expected 401.`);

  const rounds: { baseline: Measured; real: Measured }[] = [];
  for (let i = 1; i <= roundCount; i++) {
    const label = roundCount > 1 ? ` (round ${i}/${roundCount})` : "";
    // Even rounds run the real app first, so a drift in machine load does not always favour the same side.
    if (i % 2) rounds.push({ baseline: await measure(baseline, {}, label), real: await measure(real, auth, label) });
    else {
      const r = await measure(real, auth, label);
      rounds.push({ baseline: await measure(baseline, {}, label), real: r });
    }
  }

  const row = (name: string, r: Measured) =>
    `${name.padEnd(44)} ${r.requestsPerSec.toFixed(0).padStart(7)} ${r.p50Ms.toFixed(2).padStart(8)} ${r.p99Ms.toFixed(2).padStart(8)} ${r.cpuUsPerRequest.toFixed(0).padStart(12)}`;
  console.log(`\nGET /api/projects, ${projectCount} projects per user, wrk -t2 -c${connections} -d${seconds}s after a ${WARMUP_SECONDS} s warm-up each`);
  console.log(`${"".padEnd(44)} ${"req/s".padStart(7)} ${"p50 ms".padStart(8)} ${"p99 ms".padStart(8)} ${"server CPU".padStart(12)}`);
  console.log(`${"".padEnd(44)} ${"".padStart(7)} ${"".padStart(8)} ${"".padStart(8)} ${"µs/request".padStart(12)}`);
  const ratios = rounds.map(({ baseline: b, real: a }, i) => {
    if (roundCount > 1) console.log(`round ${i + 1}`);
    console.log(row("baseline: bare Hono + same SQL, no auth", b));
    console.log(row(opts["no-token-cache"] ? "real app: RS256 token, token cache off" : "real app: RS256 token + app route", a));
    return a.requestsPerSec / b.requestsPerSec;
  });
  const ratio = median(ratios);
  console.log(
    `\nratio real/baseline req/s: ${(ratio * 100).toFixed(1)}%${roundCount > 1 ? ` (median of ${ratios.map((r) => (r * 100).toFixed(1)).join(", ")})` : ""}` +
      ` (goal >= ${GOAL * 100}%): ${ratio >= GOAL ? "MET" : "NOT MET"}`,
  );
  console.log(`
Both servers ran on this same machine in this same run, one after the other, against the same fresh
database, each in its own Bun process with a pool of ${POOL_MAX} connections; wrk (2 threads) and PostgreSQL
shared the machine's ${navigator.hardwareConcurrency} cores with them. Compare ratios, not absolute figures, across machines.
"server CPU" is the server process's user+system CPU time over the measured run divided by its requests:
it is steadier than req/s on a busy machine and shows the per-request cost the app adds.`);
  warnIfBusy(loadBefore, "req/s and p99 are noisy. Trust the CPU column, or re-run with --rounds 3 on a quiet machine.");
  return opts.check && ratio < GOAL ? 1 : 0;
}

async function measure(server: Server, headers: Record<string, string>, label: string): Promise<Measured> {
  process.stdout.write(`wrk ${server.name}${label}: ${WARMUP_SECONDS} s warm-up, ${seconds} s measured… `);
  await runWrk({ url: server.url, connections, seconds: WARMUP_SECONDS, headers });
  const cpuBefore = cpuMicros(server.pid);
  const r = await runWrk({ url: server.url, connections, seconds, headers });
  const cpu = cpuMicros(server.pid) - cpuBefore;
  if (r.non2xx > 0) throw new Error(`${server.name}: ${r.non2xx} responses were not 2xx during the run:\n${r.raw}`);
  console.log(`${r.requestsPerSec.toFixed(0)} req/s${r.socketErrors ? ` (${r.socketErrors} socket errors or 2 s timeouts)` : ""}`);
  return { ...r, cpuUsPerRequest: cpu / r.requests };
}

/** utime + stime of a process from /proc, in microseconds (Linux clock ticks are 1/100 s). */
function cpuMicros(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

/** A local stand-in for Google's key endpoint, and an ID token signed by its key with the claims Firebase issues. */
async function startJwks(cleanups: Cleanups): Promise<{ jwksUrl: string; token: string }> {
  const { publicKey, privateKey } = await generateKeyPair("RS256");
  const jwk = { ...(await exportJWK(publicKey)), kid: "bench-key", alg: "RS256", use: "sig" };
  const server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => Response.json({ keys: [jwk] }) });
  cleanups.push(async () => server.stop(true));
  const now = Math.floor(Date.now() / 1000);
  const token = await new SignJWT({
    email: `${OWNER}@example.com`,
    name: "Bench Owner",
    auth_time: now - 60,
    user_id: OWNER,
    firebase: { identities: { "google.com": [`google-${OWNER}`] }, sign_in_provider: "google.com" },
  })
    .setProtectedHeader({ alg: "RS256", kid: "bench-key", typ: "JWT" })
    .setIssuer(`https://securetoken.google.com/${PROJECT_ID}`)
    .setAudience(PROJECT_ID)
    .setSubject(OWNER)
    .setIssuedAt(now - 60)
    .setExpirationTime(now + 3600)
    .sign(privateKey);
  return { jwksUrl: `http://127.0.0.1:${server.port}/keys`, token };
}

/** A bench server subprocess (bench/servers/), listening on the port it reports. */
async function spawnServer(name: string, file: string, args: unknown, cleanups: Cleanups): Promise<Server> {
  const child = await startChildServer<{ port: number }>(file, args, cleanups, { env: { ...process.env, NODE_ENV: "production" } });
  return { name, url: `http://127.0.0.1:${child.info.port}/api/projects`, pid: child.pid };
}

async function listOf(url: string, headers: Record<string, string>): Promise<unknown[]> {
  const res = await fetch(url, { headers });
  if (!res.ok) throw new Error(`${url} answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as unknown[];
}

await runBench(main);
