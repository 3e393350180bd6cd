/**
 * `bun run test`: every check the project has, in one run, ending with the one line CI reads:
 * `N passed, N failed`. Exits non-zero on any failure.
 *
 * 1. Build the web app (the browser tests use the build) and type-check (tsc), the latter beside step 2.
 * 2. Unit and integration tests. Suites that touch the database run twice: against real PostgreSQL when
 *    TEST_DATABASE_URL is set, and always against embedded PGlite.
 * 3. The security suite (security/*.security.test.ts): each test replays an attack and asserts the safe outcome;
 *    beside the PGlite pass when both databases run.
 * 4. Browser end-to-end tests (Debian Chromium, the real Auth emulator, the real server).
 * 0. First the style checks: Biome's formatter and linter (`biome ci`; `bun run format` fixes the format) and
 *    knip's unused files, values and dependencies (`bun run unused`).
 */
import postgres from "postgres";
import { countsByFile, failuresIn } from "./test-counts";

type Result = { name: string; passed: number; failed: number; seconds?: number; failures?: string[]; flaky?: string[] };
const results: Result[] = [];
const DB_SUITES = ["api/src/routes", "api/src/db", "api/src/events", "api/src/services", "api/src/realtime", "api/src/agent", "api/src/shutdown.test.ts"];
const only = process.argv.slice(2); // optional: names of steps to run, e.g. `bun run test unit`

type Ran = { output: string; code: number; seconds: number };

/**
 * Runs one step. `live` streams its output as it comes; a step run beside another is buffered instead and
 * printed whole when it ends, so the two never interleave.
 */
async function run(name: string, cmd: string[], env: Record<string, string | undefined> = {}, live = true): Promise<Ran> {
  const header = `\n=== ${name}: ${cmd.join(" ")}`;
  if (live) console.log(header);
  const started = performance.now();
  const proc = Bun.spawn(cmd, { env: { ...process.env, ...env }, stdout: "pipe", stderr: "pipe" });
  let output = "";
  const pump = async (stream: ReadableStream<Uint8Array>, sink: NodeJS.WriteStream) => {
    const decoder = new TextDecoder();
    const reader = stream.getReader();
    for (let r = await reader.read(); !r.done; r = await reader.read()) {
      const text = decoder.decode(r.value, { stream: true });
      output += text;
      if (live) sink.write(text);
    }
  };
  await Promise.all([pump(proc.stdout, process.stdout), pump(proc.stderr, process.stderr)]);
  const code = await proc.exited;
  if (!live) console.log(`${header}\n${output}`);
  return { output, code, seconds: Math.round((performance.now() - started) / 1000) };
}

const wanted = (name: string) => !only.length || only.includes(name.split(" ")[0]!);

/** A step that is one check: passed when the command exits 0. */
async function check(name: string, cmd: string[], live = true) {
  if (!wanted(name)) return;
  const { code, seconds } = await run(name, cmd, {}, live);
  results.push({ name, passed: code === 0 ? 1 : 0, failed: code === 0 ? 0 : 1, seconds });
}

/**
 * A bun test step: counts come from bun's summary; a crash without a summary counts as one failure. With
 * `retryFailedFiles`, files with a failure run once more on their own (the browser tests on a busy 2-core machine
 * fail now and then on a wait); their second results replace their first, and tests that passed only on the retry
 * are listed as flaky in the summary, so they are seen, not hidden.
 */
async function bunTest(name: string, paths: string[], env: Record<string, string | undefined> = {}, live = true, retryFailedFiles = false) {
  if (!wanted(name)) return;
  // bunfig.toml cannot set the per-test timeout; s3rver, PGlite and sandboxes need more than bun's 5 s.
  const { output, code, seconds } = await run(name, ["bun", "test", "--timeout", "60000", ...paths], env, live);
  let passed = Number(/^\s*(\d+) pass$/m.exec(output)?.[1] ?? 0);
  let failed = Number(/^\s*(\d+) fail$/m.exec(output)?.[1] ?? 0);
  // The failing tests' names go into the summary too: CI keeps only the tail of the output.
  let failures = failuresIn(output);
  let flaky: string[] = [];
  let total = seconds;
  const byFile = countsByFile(output);
  const failedFiles = [...byFile].filter(([, c]) => c.failed > 0).map(([f]) => f);
  const attributed = failedFiles.reduce((n, f) => n + byFile.get(f)!.failed, 0);
  // Only when every failure belongs to a file (not an error between tests), and a few files, not a broken build.
  if (retryFailedFiles && failed > 0 && attributed === failed && failedFiles.length <= 3) {
    const again = await run(`${name} (retry of ${failedFiles.join(", ")})`, ["bun", "test", "--timeout", "60000", ...failedFiles], env, live);
    total += again.seconds;
    const retried = countsByFile(again.output);
    const firstOfRetried = failedFiles.reduce((n, f) => n + (byFile.get(f)?.passed ?? 0), 0);
    const secondPassed = [...retried.values()].reduce((n, c) => n + c.passed, 0);
    const secondFailed = Number(/^\s*(\d+) fail$/m.exec(again.output)?.[1] ?? 0) || (again.code !== 0 ? 1 : 0);
    passed = passed - firstOfRetried + secondPassed;
    const stillFailing = failuresIn(again.output);
    flaky = failures.filter((f) => !stillFailing.includes(f));
    failures = stillFailing;
    failed = secondFailed;
    results.push({ name, passed, failed, seconds: total, failures, flaky });
    return;
  }
  results.push({ name, passed, failed: failed || (code !== 0 || passed === 0 ? 1 : 0), seconds: total, failures, flaky });
}

async function dropLeftoverTestDatabases(url: string) {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const rows = await sql<{ datname: string }[]>`select datname from pg_database where datname like 'app_test_%'`;
    for (const { datname } of rows) await sql.unsafe(`drop database if exists "${datname}" with (force)`);
  } finally {
    await sql.end();
  }
}

const pgUrl = process.env.TEST_DATABASE_URL;
if (pgUrl) await dropLeftoverTestDatabases(pgUrl).catch((e) => console.warn(`(could not tidy old test databases: ${e})`));

// The web build comes first: some unit tests serve web/dist. The type-check (one core, half a minute) runs
// beside the first unit pass; the security suite beside the PGlite pass, which then holds only the database
// suites (no sandboxes). The e2e pass runs alone: it is the one most sensitive to a busy machine.
// Style first, each a second or two: Biome's formatter and linter, then knip's unused files, values and dependencies.
await check("lint", ["bunx", "biome", "ci", "."]);
await check("unused", ["bunx", "knip", "--no-progress"]);
await check("build", ["bun", "run", "build"]);
const typecheck = check("typecheck", ["bunx", "tsc", "--noEmit", "-p", "tsconfig.json"], !pgUrl);
if (pgUrl) await bunTest("unit (PostgreSQL)", ["api", "shared", "scripts", "web/src"], { TEST_DATABASE_URL: pgUrl });
await typecheck;
// The sandbox suites marked sameOnEveryDatabase already ran in the PostgreSQL pass.
const pglite = bunTest("unit (PGlite)", pgUrl ? DB_SUITES : ["api", "shared", "scripts", "web/src"], {
  TEST_DATABASE_URL: undefined,
  SANDBOX_SUITES_RAN: pgUrl ? "1" : undefined,
});
if (!pgUrl) await pglite;
await bunTest("security", ["security"], { TEST_DATABASE_URL: pgUrl }, !pgUrl);
await pglite;
await bunTest("e2e", ["e2e"], {}, true, true);

const passed = results.reduce((n, r) => n + r.passed, 0);
const failed = results.reduce((n, r) => n + r.failed, 0);
console.log("\n=== summary");
for (const r of results) {
  console.log(`  ${r.failed ? "FAIL" : "ok  "} ${r.name}: ${r.passed} passed, ${r.failed} failed (${r.seconds} s)`);
  for (const f of r.failures ?? []) console.log(`         (fail) ${f}`);
  for (const f of r.flaky ?? []) console.log(`         (flaky: failed, then passed on the retry) ${f}`);
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
