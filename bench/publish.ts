/**
 * `bun bench/publish.ts`: publishing and serving published sites, in one run on this machine.
 *
 * - Publish of the react template (build in a local sandbox + upload to the object store), median of N.
 * - Requests per second and p99 at 50 connections (wrk) for the site's index.html and a 200 KB asset,
 *   served by the app (by Host header, from its in-memory cache) against Caddy's `file_server` on the same
 *   files from a folder, measured in the same run. Goal: the app ≥ 50% of Caddy.
 *
 * The real server pieces (startParts + serveHttp) run in this process on a temp DATA_DIR with embedded
 * PGlite and a local store; needs what local sandboxes need (root, bubblewrap), wrk and caddy.
 *
 *   bun bench/publish.ts [--publishes 3] [--seconds 8]
 */
import { grantedAccess } from "../api/src/test/access";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { parseArgs } from "node:util";
import { findLiveSite } from "../api/src/db/deployments";
import { upsertUser } from "../api/src/db/users";
import { writeFileAtPath } from "../api/src/services/files";
import { createProject } from "../api/src/services/projects";
import { buildsSettled, listProjectDeployments, publishProject } from "../api/src/services/publish/index";
import { readSiteBlob } from "../api/src/services/publish/live-site";
import { freePort } from "../e2e/support/free-port";
import { startBenchApp } from "./support/bench-app";
import { runCaddy } from "../api/src/test/caddy-process";
import { requireCaddy } from "./support/caddy";
import { upperMedian } from "./support/stats";
import { ensureWrk, runWrk } from "./support/wrk";

const { values: opts } = parseArgs({ options: { publishes: { type: "string", default: "3" }, seconds: { type: "string", default: "8" } } });
const PUBLISHES = Number(opts.publishes);
const SECONDS = Number(opts.seconds);
const GOAL_SHARE = 0.5;

await ensureWrk();
requireCaddy();

const bench = await startBenchApp("bench-publish-", { RATE_LIMIT_PUBLISH_PER_MINUTE: "0" });
const { config, port } = bench;
const deps = bench.parts.deps;

const uid = "bench-publisher";
await upsertUser(deps.sql, { id: uid, email: "bench@example.com", displayName: "Bench", photoURL: null });
const project = await createProject(deps, uid, { name: "Bench Site" });
console.log("Applying the react template (dependencies from the template cache)…");
await deps.sandboxes.applyTemplate(grantedAccess(uid, project.id), "react");
// A 200 KB asset with a hashed name, copied by Vite from public/ as it is.
const ASSET = "assets/data-B7x9Qz2k.json";
const payload = JSON.stringify(Array.from({ length: 3200 }, (_, i) => ({ id: i, name: `item ${i}`, tags: ["a", "b", "c"], v: Math.sin(i) })));
await writeFileAtPath(deps, grantedAccess(uid, project.id), `public/${ASSET}`, payload.slice(0, 200 * 1024));

const slug = "bench-site";
const times: number[] = [];
for (let i = 0; i < PUBLISHES; i++) {
  await writeFileAtPath(deps, grantedAccess(uid, project.id), "src/round.ts", `export const round = ${i};\n`);
  const started = performance.now();
  await publishProject(deps, grantedAccess(uid, project.id), i === 0 ? { slug } : {});
  await buildsSettled();
  const took = performance.now() - started;
  const [latest] = await listProjectDeployments(deps, grantedAccess(uid, project.id));
  if (latest?.status !== "live") throw new Error(`publish ${i + 1} did not go live:\n${latest?.buildLog}`);
  times.push(took);
  console.log(`  publish ${i + 1}: ${(took / 1000).toFixed(2)} s (${(latest.bytes / 1024).toFixed(0)} KB)`);
}
const median = upperMedian(times);

// The same files in a folder for Caddy.
const site = await findLiveSite(deps.sql, slug);
if (!site) throw new Error("the site is not live");
const caddyRoot = mkdtempSync(join(tmpdir(), "bench-publish-caddy-"));
for (const [path, [sha256]] of Object.entries(site.files)) {
  const bytes = await readSiteBlob(deps, sha256);
  mkdirSync(dirname(join(caddyRoot, path)), { recursive: true });
  writeFileSync(join(caddyRoot, path), bytes!);
}
const caddyPort = await freePort();
const caddy = await runCaddy({
  caddyfile: (home) => {
    writeFileSync(join(home, "Caddyfile"), `{\n\tadmin off\n\tauto_https off\n}\n:${caddyPort} {\n\troot * ${caddyRoot}\n\tfile_server\n}\n`);
    return join(home, "Caddyfile");
  },
  readyUrl: `http://127.0.0.1:${caddyPort}/`,
});

const host = `${slug}.${config.sites.domain}:${port}`;
const appBase = `http://127.0.0.1:${port}`;
const check = await fetch(`${appBase}/${ASSET}`, { headers: { Host: host } });
if (check.status !== 200) throw new Error(`the app answered ${check.status} for the asset`);
const assetKb = ((await check.arrayBuffer()).byteLength / 1024).toFixed(0);
for (const path of ["/", `/${ASSET}`]) {
  const [a, c] = await Promise.all([fetch(`${appBase}${path}`, { headers: { host } }), fetch(`http://127.0.0.1:${caddyPort}${path}`, { redirect: "manual" })]);
  if (a.status !== 200 || c.status !== 200) throw new Error(`${path}: app ${a.status}, caddy ${c.status}`);
  if ((await a.text()) !== (await c.text())) throw new Error(`${path}: the app and Caddy serve different bytes`);
}

console.log(`\nServing, wrk -c50 for ${SECONDS} s each (identity encoding on both sides):`);
type Row = { what: string; app: Awaited<ReturnType<typeof runWrk>>; caddy: Awaited<ReturnType<typeof runWrk>> };
const rows: Row[] = [];
for (const [what, path] of [
  ["index.html", "/"],
  [`${assetKb} KB asset`, `/${ASSET}`],
] as const) {
  // Warm both (the app's cache, Caddy's page cache), then measure them one after the other.
  await runWrk({ url: `${appBase}${path}`, connections: 10, seconds: 1, headers: { Host: host } });
  const app = await runWrk({ url: `${appBase}${path}`, connections: 50, seconds: SECONDS, headers: { Host: host } });
  await runWrk({ url: `http://127.0.0.1:${caddyPort}${path}`, connections: 10, seconds: 1 });
  const caddyResult = await runWrk({ url: `http://127.0.0.1:${caddyPort}${path}`, connections: 50, seconds: SECONDS });
  rows.push({ what, app, caddy: caddyResult });
}

await caddy.stop();
rmSync(caddyRoot, { recursive: true, force: true });
await bench.close();

console.log(`\nPublish of the react template (build + upload), median of ${PUBLISHES}: ${(median / 1000).toFixed(2)} s`);
for (const { what, app, caddy: c } of rows) {
  const share = app.requestsPerSec / c.requestsPerSec;
  const errors = (r: typeof app) => (r.non2xx + r.socketErrors ? ` (errors: ${r.non2xx} non-2xx, ${r.socketErrors} socket)` : "");
  console.log(
    `${what.padEnd(14)} app ${app.requestsPerSec.toFixed(0).padStart(7)} req/s p99 ${app.p99Ms.toFixed(1)} ms${errors(app)} | caddy file_server ${c.requestsPerSec.toFixed(0).padStart(7)} req/s p99 ${c.p99Ms.toFixed(1)} ms${errors(c)} | app/caddy ${(share * 100).toFixed(1)}% (goal ≥ ${GOAL_SHARE * 100}%)`,
  );
}
process.exit(0);
