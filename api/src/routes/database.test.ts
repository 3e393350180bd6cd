/**
 * The Database view's API on real project databases (PostgreSQL with TEST_DATABASE_URL, else embedded PGlite):
 * tables with row counts, a sorted page of rows, SQL with PostgreSQL's errors and positions, the time limit,
 * and 404 for another user's project on every route.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { DatabaseInfo, QueryResult, SqlErrorBody, TableRows } from "@shared/schemas/database";
import { appDatabasesContext } from "../test/app-databases";
import { testApp, type TestUser } from "../test/test-app";

let dbs: Awaited<ReturnType<typeof appDatabasesContext>>;
let t: Awaited<ReturnType<typeof testApp>>;
let alice: TestUser;
let projectId: string;

beforeAll(async () => {
  dbs = await appDatabasesContext();
  t = await testApp({ appDatabases: dbs.appDatabases });
  alice = t.user("alice");
  projectId = ((await (await alice.request("POST", "/api/projects", { name: "Data" })).json()) as { id: string }).id;
}, 180_000);
afterAll(async () => {
  await dbs?.closeAppDatabases();
});

const query = (user: TestUser, sql: string) => user.request("POST", `/api/projects/${projectId}/database/query`, { sql });

describe(`database routes (${process.env.TEST_DATABASE_URL ? "PostgreSQL" : "PGlite"})`, () => {
  test("a new project's database is made on first look: ready, sized, no tables", async () => {
    const res = await alice.request("GET", `/api/projects/${projectId}/database`);
    expect(res.status).toBe(200);
    const info = (await res.json()) as DatabaseInfo;
    expect(info.status).toBe("ready");
    expect(info.sizeBytes).toBeGreaterThan(0);
    expect(info.tables).toEqual([]);
  }, 120_000);

  test("SQL from the SQL box changes the database; the tables then show columns and row counts", async () => {
    const created = await query(
      alice,
      "create table items (id serial primary key, title text not null, done boolean); insert into items (title) select 'item ' || g from generate_series(1, 120) g",
    );
    expect(created.status).toBe(200);
    const read = (await (await query(alice, "select id, title from items order by id limit 2")).json()) as QueryResult;
    expect(read).toMatchObject({
      columns: [
        { name: "id", type: "integer" },
        { name: "title", type: "text" },
      ],
      rows: [
        [1, "item 1"],
        [2, "item 2"],
      ],
      rowCount: 2,
      truncated: false,
    });
    const many = (await (await query(alice, "select g from generate_series(1, 600) g")).json()) as QueryResult;
    expect([many.rows.length, many.truncated]).toEqual([500, true]);

    const info = (await (await alice.request("GET", `/api/projects/${projectId}/database`)).json()) as DatabaseInfo;
    expect(info.tables).toEqual([
      {
        name: "items",
        columns: [
          { name: "id", type: "integer", nullable: false },
          { name: "title", type: "text", nullable: false },
          { name: "done", type: "boolean", nullable: true },
        ],
        rowEstimate: 120,
      },
    ]);
  }, 60_000);

  test("rows page and sort; an unknown column or table is refused", async () => {
    const page = (await (await alice.request("GET", `/api/projects/${projectId}/database/tables/items/rows?limit=3&offset=1&order=-id`)).json()) as TableRows;
    expect(page.total).toBe(120);
    expect(page.columns.map((c) => c.name)).toEqual(["id", "title", "done"]);
    expect(page.rows).toEqual([
      [119, "item 119", null],
      [118, "item 118", null],
      [117, "item 117", null],
    ]);
    const byTitle = (await (await alice.request("GET", `/api/projects/${projectId}/database/tables/items/rows?limit=2&order=title`)).json()) as TableRows;
    expect(byTitle.rows.map((r) => r[1])).toEqual(["item 1", "item 10"]);
    const badColumn = await alice.request("GET", `/api/projects/${projectId}/database/tables/items/rows?order=nope`);
    expect(badColumn.status).toBe(400);
    expect(((await badColumn.json()) as SqlErrorBody).error).toContain('no column "nope"');
    expect((await alice.request("GET", `/api/projects/${projectId}/database/tables/nowhere/rows`)).status).toBe(404);
    expect((await alice.request("GET", `/api/projects/${projectId}/database/tables/items/rows?limit=501`)).status).toBe(400);
  });

  test("a SQL error answers 400 with PostgreSQL's message and its position", async () => {
    const res = await query(alice, "select id,\n  titel from items");
    expect(res.status).toBe(400);
    const body = (await res.json()) as SqlErrorBody;
    expect(body).toMatchObject({ code: "bad_request", position: 14, sqlState: "42703" });
    expect(body.error).toContain('column "titel" does not exist');
    expect((await query(alice, "   ")).status).toBe(400);
  });

  test("while a project's statement runs, the API answers other requests", async () => {
    const sleeping = query(alice, "select pg_sleep(5)").then(() => Date.now());
    await Bun.sleep(500);
    const started = Date.now();
    expect((await t.app.request("/api/health")).status).toBe(200);
    const answered = Date.now();
    expect(answered - started).toBeLessThan(1_000);
    expect(await sleeping).toBeGreaterThan(answered + 2_000);
  }, 30_000);

  test("a statement over 10 s is cancelled and says so", async () => {
    const started = Date.now();
    const res = await query(alice, "select pg_sleep(30)");
    expect(res.status).toBe(400);
    expect(((await res.json()) as SqlErrorBody).error).toContain("ran longer than 10 s and was cancelled");
    expect(Date.now() - started).toBeLessThan(15_000);
  }, 40_000);

  test("another user's project answers 404 on every route, and nothing runs", async () => {
    const mallory = t.user("mallory");
    expect((await mallory.request("GET", `/api/projects/${projectId}/database`)).status).toBe(404);
    expect((await mallory.request("GET", `/api/projects/${projectId}/database/tables/items/rows`)).status).toBe(404);
    expect((await query(mallory, "drop table items")).status).toBe(404);
    const info = (await (await alice.request("GET", `/api/projects/${projectId}/database`)).json()) as DatabaseInfo;
    expect(info.tables.map((t) => t.name)).toEqual(["items"]);
  });
});

test("a server without project databases says the database is unavailable", async () => {
  const plain = await testApp();
  const bob = plain.user("bob");
  const id = ((await (await bob.request("POST", "/api/projects", { name: "No data" })).json()) as { id: string }).id;
  expect(await (await bob.request("GET", `/api/projects/${id}/database`)).json()).toEqual({ status: "unavailable", sizeBytes: 0, tables: [] });
});
