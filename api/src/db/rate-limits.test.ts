/** The rate-limit counters on the test database: parallel hits all count, windows are aligned, old windows are pruned. */
import { beforeAll, describe, expect, test } from "bun:test";
import { testDb } from "../test/test-db";
import type { Sql } from "./client";
import { countHit, pruneCounters } from "./rate-limits";

let sql: Sql;
beforeAll(async () => {
  sql = (await testDb()).sql;
});

describe(`rate-limit counters (${process.env.TEST_DATABASE_URL ? "PostgreSQL" : "PGlite"})`, () => {
  test("parallel hits on one bucket each count once; buckets count apart", async () => {
    const bucket = `chat:${crypto.randomUUID()}`;
    const hits = await Promise.all(Array.from({ length: 8 }, () => countHit(sql, bucket, 3600)));
    expect(hits.map((h) => h.hits).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect((await countHit(sql, `${bucket}-other`, 3600)).hits).toBe(1);
  });

  test("the time left runs to the end of a window aligned on the epoch", async () => {
    const { secondsLeft } = await countHit(sql, `w:${crypto.randomUUID()}`, 60);
    const [row] = await sql<{ now: number }[]>`select extract(epoch from now())::float8 as now`;
    const now = row!.now;
    expect(secondsLeft).toBeGreaterThan(0);
    expect(secondsLeft).toBeLessThanOrEqual(60);
    // now + left lands on a multiple of 60 seconds (within the time between the two queries).
    const end = now + secondsLeft;
    expect(Math.abs(end - Math.round(end / 60) * 60)).toBeLessThan(2);
  });

  test("pruning deletes windows that ended more than a window ago and keeps the current one", async () => {
    const old = `old:${crypto.randomUUID()}`;
    const current = `cur:${crypto.randomUUID()}`;
    await sql`insert into rate_limit_counters (bucket, window_start, hits) values (${old}, now() - interval '10 minutes', 3)`;
    await countHit(sql, current, 60);
    expect(await pruneCounters(sql, 60)).toBeGreaterThanOrEqual(1);
    const left = await sql<{ bucket: string }[]>`select bucket from rate_limit_counters where bucket in (${old}, ${current})`;
    expect(left.map((r) => r.bucket)).toEqual([current]);
  });
});
