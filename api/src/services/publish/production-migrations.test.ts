/**
 * Production migrations at publish on a real project database (PostgreSQL with TEST_DATABASE_URL, else embedded
 * PGlite): files applied in lexical order, once each, recorded in _migrations; a syntax error rolls back its own
 * file (production unchanged) and says where; production is apart from development; the Database view reads
 * production read-only (`?env=production`), and deleting the project drops it.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { DatabaseInfo, QueryResult, SqlErrorBody } from "@shared/schemas/database";
import type { Manifest } from "../../db/versions";
import { appDatabasesContext } from "../../test/app-databases";
import { testApp, type TestUser } from "../../test/test-app";
import { withProjectDatabase } from "../app-databases";
import { storeContent } from "../content-blobs";
import { applyProductionMigrations, MigrationError, migrationFiles } from "./production-migrations";

let dbs: Awaited<ReturnType<typeof appDatabasesContext>>;
let t: Awaited<ReturnType<typeof testApp>>;
let alice: TestUser;

beforeAll(async () => {
  dbs = await appDatabasesContext();
  t = await testApp({ appDatabases: dbs.appDatabases, productionDatabases: dbs.productionDatabases });
  alice = t.user("alice");
}, 180_000);
afterAll(async () => {
  await dbs?.closeAppDatabases();
});

const newProject = async () => ((await (await alice.request("POST", "/api/projects", { name: "Todo" })).json()) as { id: string }).id;
const ctx = () => ({ ...t.deps, productionDatabases: dbs.productionDatabases, appDatabases: dbs.appDatabases });

/** A manifest of these files, their contents stored as blobs. */
async function manifestOf(files: Record<string, string>): Promise<Manifest> {
  const manifest: Manifest = {};
  for (const [path, text] of Object.entries(files)) {
    const bytes = new TextEncoder().encode(text);
    const { sha256 } = await storeContent(t.deps, bytes);
    manifest[path] = [sha256, bytes.length, 0o644] as never;
  }
  return manifest;
}

const log = () => {
  let text = "";
  return { write: (s: string) => void (text += s), text: () => text };
};

describe(`production migrations (${process.env.TEST_DATABASE_URL ? "PostgreSQL" : "PGlite"})`, () => {
  test("only db/migrations/*.sql, in lexical order", () => {
    const m = { "db/migrations/010_b.sql": ["b"], "db/migrations/002_a.sql": ["a"], "db/x.sql": ["x"], "db/migrations/sub/1.sql": ["s"] } as never;
    expect(migrationFiles(m).map((f) => f.name)).toEqual(["002_a.sql", "010_b.sql"]);
  });

  test("made at the first publish, applied once each; a bad file rolls back and names its line; the view reads it read-only; delete drops it", async () => {
    const projectId = await newProject();
    expect(((await (await alice.request("GET", `/api/projects/${projectId}/database?env=production`)).json()) as DatabaseInfo).status).toBe("not_created");

    const first = await manifestOf({ "db/migrations/001_todos.sql": "create table todos (id serial primary key, title text not null);" });
    const l = log();
    expect(await applyProductionMigrations(ctx(), projectId, first, l)).toEqual(["001_todos.sql"]);
    expect(l.text()).toContain("Created the production database");
    await withProjectDatabase(ctx(), projectId, (sql) => sql`insert into todos (title) values ('milk')`, "production");

    // Development is another database: it has no todos table.
    await withProjectDatabase(ctx(), projectId, async (sql) => {
      expect((await sql`select to_regclass('public.todos') as t`)[0]!.t).toBeNull();
    });

    // A second publish: 001 is not applied again (its rows stay), 002 is; 003 has a syntax error on line 2.
    const second = await manifestOf({
      "db/migrations/001_todos.sql": "create table todos (id serial primary key, title text not null);",
      "db/migrations/002_done.sql": "alter table todos add column done boolean not null default false;",
      "db/migrations/003_bad.sql": "create table tags (id int);\ncreate tabel oops (id int);",
    });
    const error = await applyProductionMigrations(ctx(), projectId, second, log()).catch((e) => e);
    expect(error).toBeInstanceOf(MigrationError);
    expect(error.message).toContain("db/migrations/003_bad.sql failed (line 2)");
    expect(error.message).toContain("syntax error");
    await withProjectDatabase(
      ctx(),
      projectId,
      async (sql) => {
        expect((await sql`select name from _migrations order by name`).map((r) => r.name)).toEqual(["001_todos.sql", "002_done.sql"]);
        expect([...(await sql`select title, done from todos`)]).toEqual([{ title: "milk", done: false }]);
        // The bad file's first statement went with its transaction.
        expect((await sql`select to_regclass('public.tags') as t`)[0]!.t).toBeNull();
      },
      "production",
    );

    // The Database view: production's tables and rows, read-only.
    const info = (await (await alice.request("GET", `/api/projects/${projectId}/database?env=production`)).json()) as DatabaseInfo;
    expect(info.status).toBe("ready");
    expect(info.tables.map((x) => x.name).sort()).toEqual(["_migrations", "todos"]);
    const rows = await alice.request("GET", `/api/projects/${projectId}/database/tables/todos/rows?env=production`);
    expect(((await rows.json()) as { rows: unknown[][] }).rows).toEqual([[1, "milk", false]]);
    const read = await alice.request("POST", `/api/projects/${projectId}/database/query?env=production`, { sql: "select count(*)::int as n from todos" });
    expect(((await read.json()) as QueryResult).rows).toEqual([[1]]);
    for (const sql of [
      "delete from todos",
      "begin; delete from todos",
      "set default_transaction_read_only = off; delete from todos",
      "commit; delete from todos",
    ]) {
      const refused = await alice.request("POST", `/api/projects/${projectId}/database/query?env=production`, { sql });
      expect(refused.status).toBe(400);
      expect(((await refused.json()) as SqlErrorBody).error).toMatch(/read-only/);
    }
    expect(
      (
        (await (
          await alice.request("POST", `/api/projects/${projectId}/database/query?env=production`, { sql: "select count(*)::int from todos" })
        ).json()) as QueryResult
      ).rows,
    ).toEqual([[1]]);
    // Another user's project: 404 for production too.
    const mallory = t.user("mallory");
    expect((await mallory.request("GET", `/api/projects/${projectId}/database?env=production`)).status).toBe(404);
    expect((await mallory.request("POST", `/api/projects/${projectId}/database/query?env=production`, { sql: "select 1" })).status).toBe(404);

    // Deleting the project drops production.
    expect((await alice.request("DELETE", `/api/projects/${projectId}`)).status).toBeLessThan(300);
    expect(await dbs.productionDatabases.exists(projectId)).toBe(false);
  }, 180_000);
});
