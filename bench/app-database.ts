/**
 * Project databases from a real local sandbox (issue 21's benchmarks):
 *   - fresh project → first query from the sandbox answered (goal < 1 s on the embedded default): the sandbox
 *     is up, the project has no database yet; timed from `node client.js` to its answer, so it includes making
 *     the database (embedded: taking the spare PGlite kept started, or for the process's first project copying the
 *     template and starting PGlite, printed on its own line) and node's own start. The same command
 *     against the now-warm database is printed as the floor.
 *   - query round trip (`select 1`, one at a time) from inside the sandbox through the supervisor's forwarder
 *     and the host's gateway, against postgres.js on the host straight to the server (goal: p50 within 1 ms).
 * Embedded PGlite by default; TEST_DATABASE_URL=postgres://… runs it on that PostgreSQL. Needs root.
 *
 *   bun bench/app-database.ts [--projects 3] [--queries 500]
 */
import { grantedAccess } from "../api/src/test/access";
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { loadConfig } from "../api/src/lib/config";
import { silentLogger } from "../api/src/lib/logger";
import { createSandboxProvider } from "../api/src/sandbox/index";
import { createProject } from "../api/src/services/projects";
import { createProjectSandboxes } from "../api/src/services/sandboxes";
import { appDatabasesContext } from "../api/src/test/app-databases";
import { requireLocalSandboxes } from "./support/local-sandboxes";
import { loadLine, ms, nearestRank, sortedCopy, verdict } from "./support/stats";

const { values: opts } = parseArgs({ options: { projects: { type: "string", default: "3" }, queries: { type: "string", default: "500" } } });
const PROJECTS = Number(opts.projects);
const QUERIES = Number(opts.queries);

await requireLocalSandboxes();
console.log(`app databases bench — ${process.env.TEST_DATABASE_URL ? "PostgreSQL" : "embedded PGlite"}; load ${loadLine()}`);

const ctx = await appDatabasesContext({ spare: true });
await ctx.appDatabases.warm(); // embedded: the template, made once per DATA_DIR (not part of a project's first query)
const dataDir = mkdtempSync(join(tmpdir(), "bench-appdb-"));
chmodSync(dataDir, 0o755);
const config = loadConfig({ DATA_DIR: dataDir, FIREBASE_AUTH_EMULATOR_HOST: "127.0.0.1:9", FIREBASE_PROJECT_ID: "demo-bench" });
const sandboxes = createProjectSandboxes({ ...ctx, provider: createSandboxProvider(config, silentLogger), config });
const owner = await ctx.newUser("bench");

const pgjsDir = join(import.meta.dir, "../node_modules/postgres/cjs/src");
const pgjs = readdirSync(pgjsDir).map((name) => ({ path: `pgjs/${name}`, text: readFileSync(join(pgjsDir, name), "utf8") }));
const FIRST = `const sql = require("./pgjs/index.js")(process.env.DATABASE_URL, { max: 1 });
sql\`select 1 as one\`.then((r) => { console.log(r[0].one); return sql.end(); });`;
const LOOP = `const sql = require("./pgjs/index.js")(process.env.DATABASE_URL, { max: 1 });
(async () => { await sql\`select 1\`; const out = [];
  for (let i = 0; i < Number(process.argv[2]); i++) { const t = performance.now(); await sql\`select 1\`; out.push(performance.now() - t); }
  console.log(JSON.stringify(out)); await sql.end(); })();`;

const report = (label: string, samples: number[]) => {
  const s = sortedCopy(samples);
  console.log(`  ${label.padEnd(52)} p50 ${ms(nearestRank(s, 0.5), 2).padStart(9)}   p99 ${ms(nearestRank(s, 0.99), 2).padStart(9)}   (n=${s.length})`);
  return nearestRank(s, 0.5);
};

try {
  const firsts: number[] = [];
  const warm: number[] = [];
  let lastProject = "";
  const colds: number[] = [];
  for (let i = 0; i < PROJECTS + 1; i++) {
    // Embedded: the first project's database starts cold; later ones find the spare (APP_DATABASE_SPARE) ready, as a
    // project made a while after another does. Waiting for it is not timed.
    if (i > 0) await ctx.appDatabases.spareReady();
    const project = await createProject(ctx, owner, { name: `Bench ${i}` });
    const sandbox = await sandboxes.ensure(grantedAccess(owner, project.id));
    for (const f of [...pgjs, { path: "first.js", text: FIRST }, { path: "loop.js", text: LOOP }]) await sandbox.files.write(f.path, f.text);
    let t = performance.now();
    const first = await sandbox.run("node first.js", { timeoutMs: 60_000 });
    (i === 0 ? colds : firsts).push(performance.now() - t);
    if (first.stdout.trim() !== "1") throw new Error(`first query failed: ${first.stdout} ${first.stderr}`);
    t = performance.now();
    await sandbox.run("node first.js", { timeoutMs: 60_000 });
    warm.push(performance.now() - t);
    lastProject = project.id;
  }
  console.log("fresh project → first query from the sandbox answered");
  report("the process's first database (no spare yet: cold)", colds);
  const firstP50 = report("fresh (database made on this connection)", firsts);
  report("same command, database already up (node start + query)", warm);
  console.log(`  goal < 1 s: ${verdict(firstP50 < 1000)}`);

  const sandbox = await sandboxes.ensure(grantedAccess(owner, lastProject));
  const inside = JSON.parse((await sandbox.run(`node loop.js ${QUERIES}`, { timeoutMs: 120_000 })).stdout) as number[];
  const { sql, release } = await ctx.appDatabases.directClient(lastProject);
  await sql`select 1`;
  const direct: number[] = [];
  for (let i = 0; i < QUERIES; i++) {
    const t = performance.now();
    await sql`select 1`;
    direct.push(performance.now() - t);
  }
  await sql.end();
  release();
  console.log("query round trip (select 1)");
  const viaP50 = report("sandbox → forwarder → gateway → database", inside);
  const directP50 = report("host → database directly", direct);
  console.log(`  difference at p50 ${ms(viaP50 - directP50, 2)}; goal within 1 ms: ${verdict(viaP50 - directP50 <= 1)}`);
} finally {
  await sandboxes.shutdown();
  await ctx.closeAppDatabases();
  rmSync(dataDir, { recursive: true, force: true });
}
process.exit(0);
