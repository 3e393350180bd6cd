/**
 * Queries on `user_token_usage`: tokens per user per calendar month (UTC). The month is computed from the
 * database clock, so every instance counts into the same row.
 */
import type { Sql } from "./client";

const thisMonth = (sql: Sql) => sql`(date_trunc('month', now() at time zone 'utc'))::date`;

/** Adds `tokens` to the user's current month. */
export async function addMonthlyTokens(sql: Sql, userId: string, tokens: number): Promise<void> {
  await sql`
    insert into user_token_usage as u (user_id, month, tokens) values (${userId}, ${thisMonth(sql)}, ${tokens})
    on conflict (user_id, month) do update set tokens = u.tokens + excluded.tokens`;
}

/** The user's tokens this month, and the month's first day as `YYYY-MM-DD` (from the database clock). */
export async function monthlyTokens(sql: Sql, userId: string): Promise<{ tokens: number; month: string }> {
  const [row] = await sql<{ tokens: string | null; month: string }[]>`
    select (select tokens from user_token_usage where user_id = ${userId} and month = ${thisMonth(sql)})::text as tokens,
           to_char(${thisMonth(sql)}, 'YYYY-MM-DD') as month`;
  return { tokens: Number(row?.tokens ?? 0), month: row!.month };
}
