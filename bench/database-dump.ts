/**
 * A data dump of a 10 MB project database (issue 21's benchmark "a data version of a 10 MB database": goal
 * < 1 s): dumpDatabase (services/app-data/dump.ts) and restoreDatabase, timed over a few rounds, on a scratch
 * database of the PostgreSQL named by TEST_DATABASE_URL, else an embedded PGlite. Covers the dump and its
 * restore only: storing it as a version's blob is not wired yet.
 *
 *   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres bun bench/database-dump.ts [--mb 10] [--rounds 5]
 */
import { parseArgs } from "node:util";
import { dumpDatabase, restoreDatabase } from "../api/src/services/app-data/dump";
import { scratchDatabase } from "../api/src/test/scratch-database";
import { loadLine, ms, nearestRank, sortedCopy, verdict } from "./support/stats.ts";

const { values: opts } = parseArgs({ options: { mb: { type: "string", default: "10" }, rounds: { type: "string", default: "5" } } });
const MB = Number(opts.mb);
const ROUNDS = Number(opts.rounds);

console.log(`load average before: ${loadLine()}\n`);
const db = await scratchDatabase();
try {
  await db.sql.unsafe(
    "create table items (id serial primary key, title text not null, done boolean not null default false, created_at timestamptz not null default now())",
  );
  // ~200-byte rows until the database has grown by MB megabytes.
  const base = Number((await db.sql`select pg_database_size(current_database())::text as n`)[0]!.n);
  while (Number((await db.sql`select pg_database_size(current_database())::text as n`)[0]!.n) - base < MB * 1024 * 1024) {
    await db.sql.unsafe("insert into items (title) select repeat(md5(g::text), 5) from generate_series(1, 10000) g");
  }
  const size = Number((await db.sql`select pg_database_size(current_database())::text as n`)[0]!.n);
  const rows = Number((await db.sql`select count(*)::text as n from items`)[0]!.n);
  const dumps: number[] = [];
  const restores: number[] = [];
  let bytes = 0;
  for (let i = 0; i < ROUNDS; i++) {
    let t = performance.now();
    const dump = await dumpDatabase(db.sql);
    bytes = JSON.stringify(dump).length;
    dumps.push(performance.now() - t);
    t = performance.now();
    await restoreDatabase(db.sql, dump);
    restores.push(performance.now() - t);
  }
  const line = (name: string, list: number[]) => {
    const s = sortedCopy(list);
    console.log(`${name.padEnd(8)} p50 ${ms(nearestRank(s, 0.5))}  max ${ms(s[s.length - 1]!)}`);
  };
  console.log(`${db.label}: database ${(size / 1048576).toFixed(1)} MB, ${rows} rows, dump ${(bytes / 1048576).toFixed(1)} MB of JSON, ${ROUNDS} rounds`);
  line("dump", dumps);
  line("restore", restores);
  console.log(`goal: a data version under 1 s: ${verdict(nearestRank(sortedCopy(dumps), 0.5) < 1000)} (dump p50)`);
} finally {
  await db.close();
}
