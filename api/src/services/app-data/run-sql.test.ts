/** runSql against a real database (PostgreSQL with TEST_DATABASE_URL, else PGlite). */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { scratchDatabase, type ScratchDatabase } from "../../test/scratch-database";
import { runSql } from "./run-sql";
import { SqlError } from "./sql-error";

let db: ScratchDatabase;
beforeAll(async () => {
  db = await scratchDatabase();
  await db.sql.unsafe("create table items (id serial primary key, title text not null, meta jsonb, big bigint, at timestamptz, raw bytea)");
}, 180_000); // PGlite can take a minute to start on a busy machine
afterAll(() => db?.close());

const limits = { maxRows: 3, timeoutMs: 10_000 };
const failure = async (text: string, options = limits) => {
  try {
    await runSql(db.sql, text, options);
  } catch (error) {
    if (error instanceof SqlError) return error;
    throw error;
  }
  throw new Error(`"${text}" did not fail`);
};

describe(`runSql (${process.env.TEST_DATABASE_URL ? "PostgreSQL" : "PGlite"})`, () => {
  test("a write answers its row count; a read its columns, types and rows as JSON cells", async () => {
    const insert = await runSql(
      db.sql,
      `insert into items (title, meta, big, at, raw) values ('a', '{"k":[1]}', 9007199254740993, '2026-01-02T03:04:05Z', '\\x0102'), ('b', null, 1, null, null)`,
      limits,
    );
    expect(insert).toMatchObject({ columns: [], rows: [], rowCount: 2, truncated: false });
    const read = await runSql(db.sql, "select id, title, meta, big, at, raw, id as title from items order by id", limits);
    expect(read.columns).toEqual([
      { name: "id", type: "integer" },
      { name: "title", type: "text" },
      { name: "meta", type: "jsonb" },
      { name: "big", type: "bigint" },
      { name: "at", type: "timestamp with time zone" },
      { name: "raw", type: "bytea" },
      { name: "title", type: "integer" },
    ]);
    expect(read.rows).toEqual([
      [1, "a", { k: [1] }, "9007199254740993", "2026-01-02T03:04:05.000Z", "\\x0102", 1],
      [2, "b", null, "1", null, null, 2],
    ]);
    expect(read.rowCount).toBe(2);
    expect(read.ms).toBeGreaterThanOrEqual(0);
  });

  test("past maxRows the answer is cut and says so, and an empty read still names its columns", async () => {
    const many = await runSql(db.sql, "select g from generate_series(1, 100000) g", limits);
    expect(many.rows).toEqual([[1], [2], [3]]);
    expect(many.truncated).toBe(true);
    const none = await runSql(db.sql, "select id, title from items where false", limits);
    expect(none).toMatchObject({ columns: [{ name: "id" }, { name: "title" }], rows: [], rowCount: 0, truncated: false });
  });

  test("several statements run all or nothing, and the last result is answered", async () => {
    const result = await runSql(db.sql, "insert into items (title) values ('c'); select count(*)::int as n from items", limits);
    expect(result.rows).toEqual([[3]]);
    const error = await failure("insert into items (title) values ('d'); insert into items (title) values (null)");
    expect(error.sqlState).toBe("23502");
    expect((await runSql(db.sql, "select count(*)::int from items", limits)).rows).toEqual([[3]]);
  });

  test("an error comes back with PostgreSQL's message and position in the SQL as sent", async () => {
    const error = await failure("select id,\n  nme from items");
    expect(error.message).toContain('column "nme" does not exist');
    expect(error.position).toBe(14);
    const second = await failure("select 1; select * from nowhere");
    expect(second.message).toContain('relation "nowhere" does not exist');
    expect(second.position).toBe(25);
  });

  test("a statement over the time limit is cancelled and says so, even when the SQL turns statement_timeout off", async () => {
    const error = await failure("select pg_sleep(5)", { maxRows: 3, timeoutMs: 300 });
    expect(error.message).toContain("ran longer than 0.3 s and was cancelled");
    const escaped = await failure("set statement_timeout = 0; select pg_sleep(5)", { maxRows: 3, timeoutMs: 300 });
    expect(escaped.sqlState).toBe("57014");
  }, 20_000);

  test("what a statement leaves behind (an open transaction, a setting) does not outlive it", async () => {
    await runSql(db.sql, "begin; insert into items (title) values ('lost'); set application_name = 'x'", limits);
    expect((await runSql(db.sql, "select count(*)::int, current_setting('application_name') = 'x' from items", limits)).rows).toEqual([[3, false]]);
  });

  test("only comments is refused with a reason", async () => {
    expect((await failure("-- nothing")).message).toContain("no statement to run");
  });
});
