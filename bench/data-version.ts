/**
 * A data version of a 10 MB project database (issue 21's benchmark: goal < 1 s): `takeVersion` after a row
 * changed, on a project whose database holds 10 MB of rows, so the time covers what a version does with the data
 * (measure the size, dump schema and rows, gzip, hash, store the blob, write the row). The files' side of a version
 * (one changed file: ~20 ms, see bench/versions.ts) is the baseline, timed in the same run on a project with no
 * database. Also prints the restore of that version (data put back in one transaction).
 * Embedded PGlite by default; TEST_DATABASE_URL=postgres://… runs it on that PostgreSQL.
 *
 *   bun bench/data-version.ts [--mb 10] [--rounds 5]
 */
import { grantedAccess } from "../api/src/test/access";
import { parseArgs } from "node:util";
import { withProjectDatabase } from "../api/src/services/app-databases";
import { writeFileAtPath } from "../api/src/services/files";
import { createProject } from "../api/src/services/projects";
import { restoreVersion } from "../api/src/services/versions/restore";
import { takeVersion } from "../api/src/services/versions/snapshot";
import { appDatabasesContext } from "../api/src/test/app-databases";
import { loadLine, ms, nearestRank, sortedCopy, verdict } from "./support/stats.ts";

const { values: opts } = parseArgs({ options: { mb: { type: "string", default: "10" }, rounds: { type: "string", default: "5" } } });
const MB = Number(opts.mb);
const ROUNDS = Number(opts.rounds);

console.log(`data version bench — ${process.env.TEST_DATABASE_URL ? "PostgreSQL" : "embedded PGlite"}; load ${loadLine()}`);
const ctx = await appDatabasesContext({ versionMaxBytes: (MB + 64) * 1024 * 1024 });
try {
  const owner = await ctx.newUser("bench");
  const projectId = (await createProject(ctx, owner, { name: "Data" })).id;
  const plain = (await createProject(ctx, owner, { name: "Files only" })).id;
  const size = () => withProjectDatabase(ctx, projectId, async (sql) => Number((await sql`select pg_database_size(current_database())::text as n`)[0]!.n));
  await withProjectDatabase(
    ctx,
    projectId,
    (sql) =>
      sql`create table items (id serial primary key, title text not null, done boolean not null default false, created_at timestamptz not null default now())`,
  );
  // ~200-byte rows until the database has grown by MB megabytes.
  const base = await size();
  while ((await size()) - base < MB * 1024 * 1024) {
    await withProjectDatabase(ctx, projectId, (sql) => sql`insert into items (title) select repeat(md5(g::text), 5) from generate_series(1, 10000) g`);
  }
  const total = await size();
  await takeVersion(ctx, { projectId, source: "manual", label: "warm-up" });

  const versions: number[] = [];
  const filesOnly: number[] = [];
  const restores: number[] = [];
  let first = "";
  for (let i = 0; i < ROUNDS; i++) {
    await withProjectDatabase(ctx, projectId, (sql) => sql`update items set done = not done where id = ${i + 1}`);
    let t = performance.now();
    const { version } = await takeVersion(ctx, { projectId, source: "manual", label: `round ${i}` });
    versions.push(performance.now() - t);
    if (version.data !== "included") throw new Error(`data not included: ${version.data}`);
    first ||= version.id;

    await writeFileAtPath(ctx, grantedAccess(owner, plain), "src/App.tsx", `export default () => <p>${i}</p>;\n`);
    t = performance.now();
    await takeVersion(ctx, { projectId: plain, source: "manual", label: `round ${i}` });
    filesOnly.push(performance.now() - t);
  }
  for (let i = 0; i < Math.min(ROUNDS, 3); i++) {
    await withProjectDatabase(ctx, projectId, (sql) => sql`delete from items where id = ${100 + i}`);
    const t = performance.now();
    const result = await restoreVersion(ctx, grantedAccess(owner, projectId), first);
    restores.push(performance.now() - t);
    if (result.data !== "restored") throw new Error(`data ${result.data}`);
  }
  const line = (name: string, list: number[]) => {
    const s = sortedCopy(list);
    console.log(`  ${name.padEnd(44)} p50 ${ms(nearestRank(s, 0.5)).padStart(10)}  max ${ms(s[s.length - 1]!)}`);
    return nearestRank(s, 0.5);
  };
  console.log(`database ${(total / 1048576).toFixed(1)} MB (${MB} MB of rows), ${ROUNDS} rounds`);
  const p50 = line("version after a row changed (data dumped)", versions);
  line("baseline: version after a file changed, no db", filesOnly);
  line("restore of a version (data put back)", restores);
  console.log(`goal: a data version under 1 s: ${verdict(p50 < 1000)} (p50)`);
} finally {
  await ctx.closeAppDatabases();
}
process.exit(0);
