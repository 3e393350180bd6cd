/**
 * `bun bench/site-proxy.ts`: what the site server's proxy costs a running published server (issue 22, goal:
 * proxied ≥ 0.7× the requests per second of the same request made directly to the server), in one run.
 *
 * Publishes a small Node server (node:http, no dependencies) as a server deployment, then runs wrk at 50
 * connections for SECONDS against, one after the other:
 * - direct: the server in its sandbox, at the address the proxy itself sends to (the baseline);
 * - proxied: the app's site server by Host header (`<slug>.<SITES_DOMAIN>`), which passes each request on;
 * for a small answer (the worst case for the proxy: its own work is all there is) and a 100 KB one. Prints
 * req/s and p99 of each and the ratio. The real server pieces (startParts + serveHttp) run in this process on
 * a temp DATA_DIR with embedded PGlite; needs what local sandboxes need (root, bubblewrap) and wrk.
 *
 *   bun bench/site-proxy.ts [--seconds 8]
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
import { loadAverage, loadLine, verdict, warnIfBusy } from "./support/stats";
import { ensureWrk, runWrk, type WrkResult } from "./support/wrk";

const { values: opts } = parseArgs({ options: { seconds: { type: "string", default: "8" } } });
const SECONDS = Number(opts.seconds);
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

  console.log(`wrk -c50 for ${SECONDS} s each, direct first, then proxied:`);
  const rows: { what: string; direct: WrkResult; proxied: WrkResult }[] = [];
  for (const [what, path] of [
    ["2-byte answer", "/"],
    [`${BIG_BYTES / 1024} KB answer`, "/big"],
  ] as const) {
    await runWrk({ url: `${direct}${path}`, connections: 10, seconds: 1 });
    const d = await runWrk({ url: `${direct}${path}`, connections: 50, seconds: SECONDS });
    await runWrk({ url: `${bench.base}${path}`, connections: 10, seconds: 1, headers: { Host: host } });
    const p = await runWrk({ url: `${bench.base}${path}`, connections: 50, seconds: SECONDS, headers: { Host: host } });
    rows.push({ what, direct: d, proxied: p });
  }

  const errors = (r: WrkResult) => (r.non2xx + r.socketErrors ? ` (errors: ${r.non2xx} non-2xx, ${r.socketErrors} socket)` : "");
  let worst = Number.POSITIVE_INFINITY;
  console.log("");
  for (const { what, direct: d, proxied: p } of rows) {
    const ratio = p.requestsPerSec / d.requestsPerSec;
    worst = Math.min(worst, ratio);
    console.log(
      `${what.padEnd(15)} direct ${d.requestsPerSec.toFixed(0).padStart(7)} req/s p99 ${d.p99Ms.toFixed(1)} ms${errors(d)} | proxied ${p.requestsPerSec.toFixed(0).padStart(7)} req/s p99 ${p.p99Ms.toFixed(1)} ms${errors(p)} | proxied/direct ${ratio.toFixed(2)}×`,
    );
  }
  console.log(`Proxied against direct, the worse of the two: ${worst.toFixed(2)}× (goal ≥ ${GOAL_RATIO}×): ${verdict(worst >= GOAL_RATIO)}`);
  warnIfBusy(loadBefore, "the server, the proxy and wrk share its cores.");
  return 0;
});
