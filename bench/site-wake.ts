/**
 * `bun bench/site-wake.ts`: a sleeping published server, from request to first byte (issue 22, goal < 1.5 s),
 * against the same request to the same server awake, in one run on this machine.
 *
 * Publishes the fullstack template (a React client and a Node server with a database) once, then, RUNS times
 * each, times `GET /` through the app's site server by Host header until the answer's headers arrive:
 * - awake: the server running (the baseline);
 * - asleep: put to sleep as SITE_IDLE_S would (its process stopped, its sandbox kept): the common wake;
 * - sandbox gone: its sandbox stopped too (the sandbox's own idle stop): a new sandbox from the deployment's
 *   kept build, dependencies from the template cache, no `npm run build`.
 * Prints p50 and p95 of each and their ratio to awake. The real server pieces (startParts + serveHttp) run in
 * this process on a temp DATA_DIR with embedded PGlite; needs what local sandboxes need (root, bubblewrap)
 * and the npm registry (the template's dependencies, once).
 *
 *   bun bench/site-wake.ts [--runs 7]
 */
import { parseArgs } from "node:util";
import { findLiveSite } from "../api/src/db/deployments";
import { upsertUser } from "../api/src/db/users";
import { createProject } from "../api/src/services/projects";
import { buildsSettled, listProjectDeployments, publishProject } from "../api/src/services/publish/index";
import { grantedAccess } from "../api/src/test/access";
import { startBenchApp } from "./support/bench-app";
import { requireLocalSandboxes } from "./support/local-sandboxes";
import { runBench } from "./support/run-bench";
import { loadAverage, loadLine, ms, nearestRank, sortedCopy, verdict, warnIfBusy } from "./support/stats";

const { values: opts } = parseArgs({ options: { runs: { type: "string", default: "7" } } });
const RUNS = Number(opts.runs);
const GOAL_MS = 1500;

await runBench(async (cleanups) => {
  await requireLocalSandboxes();
  const loadBefore = loadAverage();
  console.log(`load average before: ${loadLine()}\n`);
  // Sleep is the bench's to decide: no idle sweep puts the server to sleep in the middle of a run.
  const bench = await startBenchApp("bench-site-wake-", { RATE_LIMIT_PUBLISH_PER_MINUTE: "0", SITE_IDLE_S: "3600" });
  cleanups.push(() => bench.close());
  const deps = bench.parts.deps;
  const servers = deps.servers!;
  const uid = "bench-wake";
  await upsertUser(deps.sql, { id: uid, email: "bench-wake@example.com", displayName: "Bench", photoURL: null });
  const project = await createProject(deps, uid, { name: "Bench Wake" });
  const access = grantedAccess(uid, project.id);
  console.log("Applying the fullstack template (its dependencies installed once into the template cache)…");
  await deps.sandboxes.applyTemplate(access, "fullstack");
  // Only the published server runs from here on: the development sandbox would share the cores.
  const [dev] = await deps.sql<{ sandboxId: string | null }[]>`select sandbox_id as "sandboxId" from projects where id = ${project.id}`;
  await deps.sandboxes.stop(uid, project.id, dev?.sandboxId ?? null);

  const slug = "bench-wake";
  console.log("Publishing it as a server (build, production database, start)…");
  const started = performance.now();
  await publishProject(deps, access, { slug });
  await buildsSettled();
  const [latest] = await listProjectDeployments(deps, access);
  if (latest?.status !== "live") throw new Error(`the publish did not go live:\n${latest?.buildLog}`);
  console.log(`  publish: ${((performance.now() - started) / 1000).toFixed(1)} s`);
  const site = await findLiveSite(deps.sql, slug);
  if (!site) throw new Error("the site is not live");

  const host = `${slug}.${bench.config.sites.domain}:${bench.port}`;
  /** Request to first byte: fetch resolves once the status line and headers are in. */
  const firstByte = async () => {
    const t = performance.now();
    const res = await fetch(`${bench.base}/`, { headers: { host } });
    const took = performance.now() - t;
    const body = await res.text();
    if (res.status !== 200 || !body.includes('id="root"')) throw new Error(`GET / answered ${res.status}: ${body.slice(0, 200)}`);
    return took;
  };
  await firstByte();

  const awake: number[] = [];
  const asleep: number[] = [];
  const gone: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    awake.push(await firstByte());
    await servers.sleepNow(site.deploymentId);
    if (servers.state(site.deploymentId) !== "sleeping") throw new Error("the server did not go to sleep");
    asleep.push(await firstByte());
    await servers.killSandboxNow(site.deploymentId);
    gone.push(await firstByte());
    console.log(`  run ${i + 1}: awake ${ms(awake.at(-1)!)}, asleep ${ms(asleep.at(-1)!)}, sandbox gone ${ms(gone.at(-1)!)}`);
  }
  const logs = servers.logs(site.deploymentId)?.join("\n") ?? "";
  const rebuilt = (logs.match(/\$ npm run build/g) ?? []).length;

  const row = (what: string, xs: number[]) => {
    const s = sortedCopy(xs);
    const p50 = nearestRank(s, 0.5);
    const base = nearestRank(sortedCopy(awake), 0.5);
    return {
      what,
      p50,
      line: `${what.padEnd(14)} p50 ${ms(p50).padStart(10)}   p95 ${ms(nearestRank(s, 0.95)).padStart(10)}   ${(p50 / base).toFixed(0)}× awake`,
    };
  };
  console.log(`\nGET / through the site server, request to first byte, ${RUNS} runs each:`);
  const rows = [row("awake", awake), row("asleep", asleep), row("sandbox gone", gone)];
  for (const r of rows) console.log(r.line);
  console.log(`npm run build in the server's log: ${rebuilt} (the publish's own; a wake never builds: the kept build is used)`);
  const met = rows[1]!.p50 < GOAL_MS;
  console.log(`A sleeping deployment, request to first byte: p50 ${ms(rows[1]!.p50)} (goal < ${GOAL_MS} ms): ${verdict(met)}`);
  warnIfBusy(loadBefore, "wake times include waiting for a busy CPU.");
  return 0;
});
