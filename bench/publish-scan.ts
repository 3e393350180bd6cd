/**
 * `bun bench/publish-scan.ts`: the secret scan's added time on a publish (issue 22, goal < 1 s), on the react
 * template's real build output.
 *
 * Publishes the react template once (build in a local sandbox), with a few project secrets set, then times on
 * that deployment's files:
 * - `scanClientFiles` alone (secret values + secretlint's recommended rules), median and max of N runs;
 * - `checkClientFiles` as the publish flow runs it (the project's secrets opened, the files read from the
 *   store, the scan), median and max of N runs;
 * - and prints the scan line of the publish's own build log.
 *
 * Needs what local sandboxes need (root, bubblewrap).
 *
 *   bun bench/publish-scan.ts [--runs 10]
 */
import { parseArgs } from "node:util";
import { findLiveSite } from "../api/src/db/deployments";
import { upsertUser } from "../api/src/db/users";
import { createBuildLog } from "../api/src/services/publish/build-log";
import { checkClientFiles } from "../api/src/services/publish/client-scan";
import { buildsSettled, listProjectDeployments, publishProject } from "../api/src/services/publish/index";
import { readSiteBlob } from "../api/src/services/publish/live-site";
import { scanClientFiles } from "../api/src/services/publish/scan-client-files";
import { createProject } from "../api/src/services/projects";
import { grantedAccess } from "../api/src/test/access";
import { startBenchApp } from "./support/bench-app";
import { upperMedian } from "./support/stats";

const { values: opts } = parseArgs({ options: { runs: { type: "string", default: "10" } } });
const RUNS = Number(opts.runs);
const GOAL_MS = 1000;

const bench = await startBenchApp("bench-publish-scan-", { RATE_LIMIT_PUBLISH_PER_MINUTE: "0" });
const deps = bench.parts.deps;
const uid = "bench-scan";
await upsertUser(deps.sql, { id: uid, email: "bench-scan@example.com", displayName: "Bench", photoURL: null });
const project = await createProject(deps, uid, { name: "Bench Scan" });
const access = grantedAccess(uid, project.id);
console.log("Applying the react template (dependencies from the template cache)…");
await deps.sandboxes.applyTemplate(access, "react");
for (const [name, value] of [
  ["STRIPE_SECRET_KEY", `sk_test_${crypto.randomUUID().replaceAll("-", "")}`],
  ["WEATHER_API_KEY", crypto.randomUUID()],
  ["DB_PASSWORD", `pw-${crypto.randomUUID()}`],
] as const) {
  await deps.secrets.set(access, name, value);
}

console.log("Publishing once (the build whose output is scanned)…");
const started = performance.now();
await publishProject(deps, access, { slug: "bench-scan" });
await buildsSettled();
const [latest] = await listProjectDeployments(deps, access);
if (latest?.status !== "live") throw new Error(`the publish did not go live:\n${latest?.buildLog}`);
console.log(`  publish: ${((performance.now() - started) / 1000).toFixed(2)} s; its log: ${latest.buildLog?.match(/Scanned .*/)?.[0] ?? "(no scan line)"}`);

const site = await findLiveSite(deps.sql, "bench-scan");
if (!site) throw new Error("the site is not live");
const files = await Promise.all(Object.entries(site.files).map(async ([path, [sha256]]) => ({ path, bytes: (await readSiteBlob(deps, sha256))! })));
const bytes = files.reduce((n, f) => n + f.bytes.length, 0);
console.log(`Build output: ${files.length} files, ${(bytes / 1024).toFixed(1)} KB`);

const secrets = await deps.secrets.values(project.id);
const time = async (fn: () => Promise<unknown>) => {
  const t = performance.now();
  await fn();
  return performance.now() - t;
};
const scanOnly: number[] = [];
const inFlow: number[] = [];
const log = createBuildLog(deps.events, { ownerId: uid, projectId: project.id, deploymentId: latest.id });
for (let i = 0; i < RUNS; i++) {
  scanOnly.push(await time(() => scanClientFiles(files, secrets)));
  inFlow.push(await time(() => checkClientFiles(deps, { projectId: project.id, deploymentId: latest.id, allowFindings: false }, site.files, log)));
}
const fmt = (xs: number[]) => `median ${upperMedian(xs).toFixed(1)} ms, max ${Math.max(...xs).toFixed(1)} ms`;
console.log(`scanClientFiles (files in memory), ${RUNS} runs: ${fmt(scanOnly)}`);
console.log(`checkClientFiles (secrets opened, files read from the store, scan), ${RUNS} runs: ${fmt(inFlow)}`);
const worst = Math.max(upperMedian(scanOnly), upperMedian(inFlow));
console.log(`Added time per publish: ${worst.toFixed(1)} ms (goal < ${GOAL_MS} ms): ${worst < GOAL_MS ? "met" : "NOT met"}`);
await bench.close();
