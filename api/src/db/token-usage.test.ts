/** Monthly token counts on the test database: additions from parallel runs all land in the database clock's month. */
import { beforeAll, describe, expect, test } from "bun:test";
import { newOwner } from "../test/db-rows";
import { testDb } from "../test/test-db";
import type { Sql } from "./client";
import { addMonthlyTokens, monthlyTokens } from "./token-usage";

let sql: Sql;
beforeAll(async () => {
  sql = (await testDb()).sql;
});

describe(`monthly token usage (${process.env.TEST_DATABASE_URL ? "PostgreSQL" : "PGlite"})`, () => {
  test("a user with no usage reads 0 for this month, named by its first day in UTC", async () => {
    const user = await newOwner(sql);
    const [row] = await sql<{ month: string }[]>`select to_char(date_trunc('month', now() at time zone 'utc'), 'YYYY-MM-DD') as month`;
    const month = row!.month;
    expect(await monthlyTokens(sql, user)).toEqual({ tokens: 0, month });
    expect(month).toMatch(/^\d{4}-\d{2}-01$/);
  });

  test("parallel additions all count, per user, past 32-bit sizes", async () => {
    const [a, b] = [await newOwner(sql), await newOwner(sql)];
    await Promise.all([
      addMonthlyTokens(sql, a, 1_500_000_000),
      addMonthlyTokens(sql, a, 1_500_000_000),
      addMonthlyTokens(sql, a, 7),
      addMonthlyTokens(sql, b, 5),
    ]);
    expect((await monthlyTokens(sql, a)).tokens).toBe(3_000_000_007);
    expect((await monthlyTokens(sql, b)).tokens).toBe(5);
  });

  test("last month's row does not count this month", async () => {
    const user = await newOwner(sql);
    await sql`insert into user_token_usage (user_id, month, tokens)
      values (${user}, (date_trunc('month', now() at time zone 'utc') - interval '1 month')::date, 999)`;
    await addMonthlyTokens(sql, user, 1);
    expect((await monthlyTokens(sql, user)).tokens).toBe(1);
  });
});
