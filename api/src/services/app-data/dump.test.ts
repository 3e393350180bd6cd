/** dumpDatabase and restoreDatabase round-trip on a real database (PostgreSQL with TEST_DATABASE_URL, else PGlite). */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { scratchDatabase, type ScratchDatabase } from "../../test/scratch-database";
import { dumpDatabase, dumpFromBytes, dumpToBytes, restoreDatabase } from "./dump";

let db: ScratchDatabase;
beforeAll(async () => {
  db = await scratchDatabase();
}, 180_000);
afterAll(() => db?.close());

test("a dump put back gives the same tables, keys, indexes, rows and sequence positions; later changes are gone", async () => {
  const sql = db.sql;
  await sql.unsafe(`
    create table lists (id serial primary key, name text not null unique);
    create table todos (id bigserial primary key, list_id int not null references lists(id) on delete cascade,
      title text not null check (title <> ''), done boolean not null default false, meta jsonb, tags text[],
      due timestamptz, created_at timestamptz not null default now());
    create index todos_due on todos (due desc);
    insert into lists (name) values ('home'), ('work');
    insert into todos (list_id, title, meta, tags, due) values (1, 'milk', '{"qty": 2}', '{a,b}', '2026-01-01T10:00:00Z'), (2, 'it''s "quoted"', null, null, null);
    create table _migrations (name text primary key, applied_at timestamptz not null default now());
    insert into _migrations (name) values ('001_init.sql');`);
  const snapshot = async () => ({
    todos: await sql`select id::int, list_id, title, done, meta, tags, due from todos order by id`,
    lists: await sql`select * from lists order by id`,
    migrations: await sql`select name from _migrations`,
  });
  const before = await snapshot();
  const dump = await dumpDatabase(sql);
  expect(JSON.parse(JSON.stringify(dump))).toEqual(dump); // storable as JSON
  const stored = dumpFromBytes(dumpToBytes(dump));
  expect(stored.tables).toEqual(dump.tables);
  expect(stored.data.map((d) => JSON.parse(d.rows))).toEqual(dump.data.map((d) => JSON.parse(d.rows)));

  await sql.unsafe(`drop table todos; insert into lists (name) values ('later'); create table extra (x int); alter table lists add column colour text`);
  await restoreDatabase(sql, stored);

  expect(await snapshot()).toEqual(before);
  const tables = await sql`select tablename from pg_tables where schemaname = 'public' order by 1`;
  expect(tables.map((t) => t.tablename)).toEqual(["_migrations", "lists", "todos"]);
  // Sequences continue after the old rows; keys, checks and the index came back.
  expect((await sql`insert into lists (name) values ('third') returning id`)[0]!.id).toBe(3);
  await expect(sql`insert into todos (list_id, title) values (99, 'orphan')`).rejects.toThrow(/foreign key/);
  await expect(sql`insert into todos (list_id, title) values (1, '')`).rejects.toThrow(/check constraint/);
  await expect(sql`insert into lists (name) values ('home')`).rejects.toThrow(/unique/);
  expect(await sql`select indexname from pg_indexes where indexname = 'todos_due'`).toHaveLength(1);
  // The serial sequence belongs to its column again.
  await sql`drop table todos`;
  expect(await sql`select 1 from pg_class where relname = 'todos_id_seq'`).toHaveLength(0);
}, 60_000);
