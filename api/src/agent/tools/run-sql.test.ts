/**
 * describe_database and run_sql on a real database (a scratch PostgreSQL database with TEST_DATABASE_URL,
 * else PGlite) through the port the chat runs give the agent.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createProjectDatabasePort } from "../../services/chat-runs/project-database";
import { memoryWorkspace, toolContext } from "../../test/memory-workspace";
import { scratchDatabase, type ScratchDatabase } from "../../test/scratch-database";
import { describeDatabaseTool } from "./describe-database";
import { MAX_ROWS, runSqlTool } from "./run-sql";

let db: ScratchDatabase;
beforeAll(async () => {
  db = await scratchDatabase();
}, 180_000); // PGlite can take a minute to start on a busy machine
afterAll(() => db?.close());

const context = () => toolContext({ ...memoryWorkspace(), database: createProjectDatabasePort((fn) => fn(db.sql)) });

describe("run_sql and describe_database", () => {
  test("a migration applied with run_sql shows in describe_database with types, keys and row counts", async () => {
    const p = context();
    const empty = await p.call(describeDatabaseTool, {});
    expect(empty).toMatchObject({ ok: true, summary: "no tables" });
    const migrate = await p.call(runSqlTool, {
      sql: `create table lists (id serial primary key, name text not null unique);
            create table todos (id serial primary key, list_id int references lists(id), title text not null, done boolean default false);
            insert into lists (name) values ('home'); insert into todos (list_id, title) values (1, 'milk'), (1, 'eggs')`,
    });
    expect(migrate).toMatchObject({ ok: true, summary: "4 statements ran" });
    const described = await p.call(describeDatabaseTool, {});
    expect(described.summary).toBe("2 tables");
    expect(described.result).toContain("table lists (1 row)\n  id integer not null (primary key)\n  name text not null\n  unique (name)");
    expect(described.result).toContain("table todos (2 rows)");
    expect(described.result).toContain("  done boolean\n");
    expect(described.result).toContain("FOREIGN KEY (list_id) REFERENCES lists(id)");
    expect(p.steps).toEqual([]); // nothing destructive
  });

  test("rows come back as tab-separated text, at most MAX_ROWS of them", async () => {
    const p = context();
    const out = await p.call(runSqlTool, { sql: "select id, title, done from todos order by id" });
    expect(out.result).toBe("2 rows (" + out.result.split("(")[1]!.split(")")[0] + "):\nid\ttitle\tdone\n1\tmilk\tfalse\n2\teggs\tfalse");
    const many = await p.call(runSqlTool, { sql: "select g from generate_series(1, 1000) g" });
    expect(many.result).toStartWith(`the first ${MAX_ROWS} rows (more were returned)`);
    expect(many.result.split("\n")).toHaveLength(MAX_ROWS + 2);
    expect(many.summary).toBe(`${MAX_ROWS}+ rows`);
  });

  test("an error names PostgreSQL's message and where in the SQL it is", async () => {
    const out = await context().call(runSqlTool, { sql: "select id,\n  titel from todos" });
    expect(out.ok).toBe(false);
    expect(out.result).toContain('The SQL failed: column "titel" does not exist');
    expect(out.result).toEndWith("(at line 2, column 3). Nothing was changed.");
  });

  test("destructive statements run, and each shows as a warning step", async () => {
    const p = context();
    const out = await p.call(runSqlTool, { sql: "delete from todos; drop table todos" });
    expect(out.ok).toBe(true);
    expect(p.steps).toEqual([
      { line: "Destructive SQL ran: DELETE without WHERE (every row of todos)", status: "warning" },
      { line: "Destructive SQL ran: DROP TABLE todos", status: "warning" },
    ]);
    expect((await p.call(describeDatabaseTool, {})).summary).toBe("1 table");
  });

  test("a refused destructive statement shows no warning", async () => {
    const p = context();
    const out = await p.call(runSqlTool, { sql: "drop table nowhere" });
    expect(out.ok).toBe(false);
    expect(p.steps).toEqual([]);
  });

  test("without a project database the tools say so", async () => {
    const out = await toolContext(memoryWorkspace()).call(runSqlTool, { sql: "select 1" });
    expect(out).toMatchObject({ ok: false });
    expect(out.result).toContain("This server has no project databases");
  });
});
