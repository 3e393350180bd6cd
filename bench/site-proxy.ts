/**
 * `bun bench/site-proxy.ts`: what the site server's proxy costs a running published server (issue 22, goal:
 * proxied ≥ 0.7× the requests per second of the same request made directly to the server), in one run.
 *
 * Publishes a small Node server (node:http, no dependencies) as a server deployment, then runs wrk at 50
 * connections for SECONDS against each of these, ROUNDS times in a turning order (medians printed):
 * - direct: the server in its sandbox, at the address the proxy itself sends to (the baseline);
 * - proxied: the app's site server by Host header (`<slug>.<SITES_DOMAIN>`), which passes each request on;
 * - bare Bun proxy: `Bun.serve` passing each request on with `fetch` and nothing else, in this same process
 *   (what any proxy written on Bun costs, so what the site server adds to it shows apart);
 * for a small answer (the worst case for the proxy: its own work is all there is) and a 100 KB one. Prints
 * req/s and p99 of each and the ratio. The real server pieces (startParts + serveHttp) run in this process on
 * a temp DATA_DIR with embedded PGlite; needs what local sandboxes need (root, bubblewrap) and wrk.
 *
 *   bun bench/site-proxy.ts [--seconds 5] [--rounds 3]
 */
import { parseArgs } from "node:util";
import { findLiveSite } from "../api/src/db/deployments";
import { upsertUser } from "../api/src/db/users";
import { writeFileAtPath } from "../api/src/services/files";
import { createProject } from "../api/src/services/projects";
import { buildsSettled, listProjectDeployments, publishProject } from "../api/src/services/publish/index";
import { grantedAccess } from "../api/src/test/access";
import { startBenchApp } from "./support/bench-app";
import { requireLocalSandboxes } from "./support/local-sandboxes";
import { runBench } from "./support/run-bench";
import { loadAverage, loadLine, upperMedian, verdict, warnIfBusy } from "./support/stats";
import { ensureWrk, runWrk, type WrkResult } from "./support/wrk";

const { values: opts } = parseArgs({ options: { seconds: { type: "string", default: "5" }, rounds: { type: "string", default: "3" } } });
const SECONDS = Number(opts.seconds);
const ROUNDS = Number(opts.rounds);
const GOAL_RATIO = 0.7;
const BIG_BYTES = 100 * 1024;

const SERVER = `import { createServer } from "node:http";
const big = "x".repeat(${BIG_BYTES});
createServer((req, res) => {
  const body = req.url === "/big" ? big : "ok";
  res.writeHead(200, { "content-type": "text/plain", "content-length": Buffer.byteLength(body) });
  res.end(body);
}).listen(Number(process.env.PORT), "0.0.0.0");
`;

await runBench(async (cleanups) => {
  await requireLocalSandboxes();
  await ensureWrk();
  const loadBefore = loadAverage();
  console.log(`load average before: ${loadLine()}\n`);
  const bench = await startBenchApp("bench-site-proxy-", { RATE_LIMIT_PUBLISH_PER_MINUTE: "0", SITE_IDLE_S: "3600" });
  cleanups.push(() => bench.close());
  const deps = bench.parts.deps;
  const uid = "bench-proxy";
  await upsertUser(deps.sql, { id: uid, email: "bench-proxy@example.com", displayName: "Bench", photoURL: null });
  const project = await createProject(deps, uid, { name: "Bench Proxy" });
  const access = grantedAccess(uid, project.id);
  await writeFileAtPath(
    deps,
    access,
    "package.json",
    JSON.stringify({ name: "bench-proxy", private: true, type: "module", scripts: { start: "node server.js" } }),
  );
  await writeFileAtPath(deps, access, "server.js", SERVER);

  const slug = "bench-proxy";
  console.log("Publishing a small Node server…");
  await publishProject(deps, access, { slug });
  await buildsSettled();
  const [latest] = await listProjectDeployments(deps, access);
  if (latest?.status !== "live") throw new Error(`the publish did not go live:\n${latest?.buildLog}`);
  const site = await findLiveSite(deps.sql, slug);
  if (!site) throw new Error("the site is not live");
  // The address the proxy sends to: the same server, the same sandbox networking.
  const target = await deps.servers!.target({ deploymentId: site.deploymentId, projectId: site.projectId, ownerId: site.ownerId, files: site.files });
  const direct = `http://${target.hostname}:${target.port}`;
  const host = `${slug}.${bench.config.sites.domain}:${bench.port}`;
  for (const path of ["/", "/big"]) {
    const [a, b] = await Promise.all([
      fetch(`${direct}${path}`).then((r) => r.text()),
      fetch(`${bench.base}${path}`, { headers: { host } }).then((r) => r.text()),
    ]);
    if (a !== b) throw new Error(`${path}: the proxy and the server answer differently`);
  }

  const bare = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: async (req) => {
      const url = new URL(req.url);
      const res = await fetch(`${direct}${url.pathname}${url.search}`, { headers: req.headers });
      return new Response(res.body, { status: res.status, headers: res.headers });
    },
  });
  cleanups.push(async () => bare.stop(true));
  const bareBase = `http://127.0.0.1:${bare.port}`;

  const targets = [
    { name: "direct", base: direct, headers: {} },
    { name: "proxied", base: bench.base, headers: { Host: host } },
    { name: "bare Bun proxy", base: bareBase, headers: {} },
  ] as const;
  type Name = (typeof targets)[number]["name"];
  console.log(`wrk -c50 for ${SECONDS} s each, ${ROUNDS} rounds, the order turning each round (a busy machine drifts):`);
  const rows: { what: string; runs: Record<Name, WrkResult[]> }[] = [];
  for (const [what, path] of [
    ["2-byte answer", "/"],
    [`${BIG_BYTES / 1024} KB answer`, "/big"],
  ] as const) {
    const runs: Record<Name, WrkResult[]> = { direct: [], proxied: [], "bare Bun proxy": [] };
    for (let round = 0; round < ROUNDS; round++) {
      for (let i = 0; i < targets.length; i++) {
        const t = targets[(i + round) % targets.length]!;
        await runWrk({ url: `${t.base}${path}`, connections: 10, seconds: 1, headers: t.headers });
        runs[t.name].push(await runWrk({ url: `${t.base}${path}`, connections: 50, seconds: SECONDS, headers: t.headers }));
      }
    }
    rows.push({ what, runs });
  }

  const errors = (rs: WrkResult[]) => {
    const non2xx = rs.reduce((n, r) => n + r.non2xx, 0);
    const socket = rs.reduce((n, r) => n + r.socketErrors, 0);
    return non2xx + socket ? ` (errors: ${non2xx} non-2xx, ${socket} socket)` : "";
  };
  const rps = (rs: WrkResult[]) => upperMedian(rs.map((r) => r.requestsPerSec));
  const figures = (rs: WrkResult[]) => `${rps(rs).toFixed(0).padStart(7)} req/s p99 ${upperMedian(rs.map((r) => r.p99Ms)).toFixed(1)} ms${errors(rs)}`;
  let worst = Number.POSITIVE_INFINITY;
  console.log("\nMedians of the rounds:");
  for (const { what, runs } of rows) {
    const ratio = rps(runs.proxied) / rps(runs.direct);
    worst = Math.min(worst, ratio);
    console.log(
      `${what.padEnd(15)} direct ${figures(runs.direct)} | proxied ${figures(runs.proxied)} | bare Bun proxy ${figures(runs["bare Bun proxy"])} | proxied/direct ${ratio.toFixed(2)}×, proxied/bare ${(rps(runs.proxied) / rps(runs["bare Bun proxy"])).toFixed(2)}×`,
    );
  }
  console.log(`Proxied against direct, the worse of the two: ${worst.toFixed(2)}× (goal ≥ ${GOAL_RATIO}×): ${verdict(worst >= GOAL_RATIO)}`);
  warnIfBusy(loadBefore, "the server, the proxy and wrk share its cores.");
  return 0;
});
