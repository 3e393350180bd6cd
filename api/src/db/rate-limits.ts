/**
 * Queries behind the shared rate limits: fixed windows counted in `rate_limit_counters`. Windows are
 * aligned on the database clock (not each instance's), so every instance agrees on when one ends.
 */
import type { Sql } from "./client";

export type WindowCount = { hits: number; secondsLeft: number };

/** Counts one hit for `bucket` in the current window and returns the window's total and time left. */
export async function countHit(sql: Sql, bucket: string, windowSeconds: number): Promise<WindowCount> {
  const [row] = await sql<{ hits: number; secondsLeft: number }[]>`
    with w as (select to_timestamp(floor(extract(epoch from now()) / ${windowSeconds}) * ${windowSeconds}) as start)
    insert into rate_limit_counters as c (bucket, window_start, hits)
    select ${bucket}, w.start, 1 from w
    on conflict (bucket, window_start) do update set hits = c.hits + 1
    returning c.hits,
      extract(epoch from (c.window_start + make_interval(secs => ${windowSeconds}) - now()))::float8 as "secondsLeft"`;
  return { hits: row!.hits, secondsLeft: row!.secondsLeft };
}

/** Deletes the counters of windows that ended more than `windowSeconds` ago. Returns how many. */
export async function pruneCounters(sql: Sql, windowSeconds: number): Promise<number> {
  const result = await sql`
    delete from rate_limit_counters where window_start < now() - make_interval(secs => ${windowSeconds * 2})`;
  return result.count;
}
