/**
 * Data in versions on the test database's kind (PostgreSQL with TEST_DATABASE_URL, else embedded PGlite): a
 * version records the project's database, restoring and undoing a run put it back, too-large databases are
 * marked and left alone, and the dumps survive the retention sweep while a version names them.
 */
import { grantedAccess } from "../../test/access";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import * as blobs from "../../db/blobs";
import { findVersion } from "../../db/versions";
import { appDatabasesContext } from "../../test/app-databases";
import { withProjectDatabase } from "../app-databases";
import { writeFileAtPath } from "../files";
import { createProject } from "../projects";
import { captureData } from "./data-state";
import { versionsAroundRun } from "./hooks";
import { restoreVersion } from "./restore";
import { sweepBlobs } from "./retention";
import { takeVersion } from "./snapshot";
import { versionBeforeMessage } from "./before-message";

let ctx: Awaited<ReturnType<typeof appDatabasesContext>>;
let owner: string;

beforeAll(async () => {
  ctx = await appDatabasesContext({ versionMaxBytes: 64 * 1024 * 1024 });
  owner = await ctx.newUser("versions-data");
}, 180_000);
afterAll(() => ctx?.closeAppDatabases());

const newProject = async () => (await createProject(ctx, owner, { name: "Todos" })).id;
const todos = (projectId: string) => withProjectDatabase(ctx, projectId, (sql) => sql<{ title: string }[]>`select title from todos order by id`);
const tables = (projectId: string) =>
  withProjectDatabase(ctx, projectId, async (sql) =>
    (await sql`select tablename from pg_tables where schemaname = 'public' order by 1`).map((r) => r.tablename),
  );

describe(`data in versions (${process.env.TEST_DATABASE_URL ? "PostgreSQL" : "PGlite"})`, () => {
  test("a version records the data; restoring it puts the rows back; History sees which versions changed data", async () => {
    const projectId = await newProject();
    await writeFileAtPath(
      ctx,
      grantedAccess(owner, projectId),
      "db/migrations/001_todos.sql",
      "create table todos (id serial primary key, title text not null);\n",
    );
    const { version: noData } = await takeVersion(ctx, { projectId, source: "manual", label: "No database yet" });
    expect(noData).toMatchObject({ data: "none", dataChanged: false });

    await withProjectDatabase(ctx, projectId, (sql) => sql`create table todos (id serial primary key, title text not null)`);
    await withProjectDatabase(ctx, projectId, (sql) => sql`insert into todos (title) values ('milk'), ('eggs')`);
    const { version: two, created } = await takeVersion(ctx, { projectId, source: "user", label: "Two todos", coalesce: false });
    expect(created).toBe(true); // the files did not change, the data did
    expect(two).toMatchObject({ data: "included", dataChanged: true, filesChanged: 0 });

    // Unchanged data: no new version, and a forced one is not marked.
    expect((await takeVersion(ctx, { projectId, source: "user", label: "Again", coalesce: false })).created).toBe(false);
    const { version: same } = await takeVersion(ctx, { projectId, source: "manual", label: "Named", force: true });
    expect(same).toMatchObject({ data: "included", dataChanged: false });

    await withProjectDatabase(ctx, projectId, (sql) => sql`delete from todos where title = 'milk'`);
    await withProjectDatabase(ctx, projectId, (sql) => sql`insert into todos (title) values ('bread')`);
    const result = await restoreVersion(ctx, grantedAccess(owner, projectId), two.id);
    expect(result.data).toBe("restored");
    expect(await todos(projectId)).toEqual([{ title: "milk" }, { title: "eggs" }] as never);
    // The restore kept the state it replaced: restoring that brings 'bread' back.
    const before = (await findVersion(ctx.sql, projectId, result.version.id))!;
    expect(before.dataState).toEqual(two.dataState);
    const replaced = (await ctx.sql`select id from versions where project_id = ${projectId} and label like 'Before restoring%'`)[0]!;
    expect((await restoreVersion(ctx, grantedAccess(owner, projectId), replaced.id)).data).toBe("restored");
    expect(await todos(projectId)).toEqual([{ title: "eggs" }, { title: "bread" }] as never);

    // Back to before the database existed: the tables go.
    expect((await restoreVersion(ctx, grantedAccess(owner, projectId), noData.id)).data).toBe("restored");
    expect(await tables(projectId)).toEqual([]);
  }, 120_000);

  test("undoing an agent run that created a table and rows drops them again", async () => {
    const projectId = await newProject();
    await writeFileAtPath(ctx, grantedAccess(owner, projectId), "README.md", "# Todos\n");
    await takeVersion(ctx, { projectId, source: "manual", label: "Start" });
    const messageId = crypto.randomUUID();
    const userMessageId = crypto.randomUUID();
    const now = new Date();
    await ctx.sql`insert into messages (id, project_id, role, content, created_at) values (${userMessageId}, ${projectId}, 'user', 'make todos', ${now})`;
    await ctx.sql`insert into messages (id, project_id, role, content, created_at) values (${messageId}, ${projectId}, 'assistant', 'done', ${new Date(now.getTime() + 1)})`;

    const around = await versionsAroundRun(ctx, { projectId, label: "make todos", messageId });
    // The run only touched the database (run_sql): that is still a change worth a version.
    await withProjectDatabase(ctx, projectId, (sql) => sql`create table todos (id serial primary key, title text not null)`);
    await withProjectDatabase(ctx, projectId, (sql) => sql`insert into todos (title) values ('from the agent')`);
    await around.after();

    const target = await versionBeforeMessage(ctx, grantedAccess(owner, projectId), userMessageId);
    const after = (await ctx.sql`select label, data_status, data_changed from versions where project_id = ${projectId} order by seq desc limit 1`)[0]!;
    expect(after).toEqual({ label: "make todos", data_status: "included", data_changed: true } as never);
    expect((await restoreVersion(ctx, grantedAccess(owner, projectId), target.id)).data).toBe("restored");
    expect(await tables(projectId)).toEqual([]);
  }, 120_000);

  test("a database over APP_DATABASE_VERSION_MAX_MB is marked not included, and restoring leaves the data alone", async () => {
    const small = await appDatabasesContext({ versionMaxBytes: 1024 });
    try {
      const projectId = (await createProject(small, owner, { name: "Big" })).id;
      await withProjectDatabase(small, projectId, (sql) => sql`create table notes (body text)`);
      await withProjectDatabase(small, projectId, (sql) => sql`insert into notes values ('kept')`);
      const { version } = await takeVersion(small, { projectId, source: "manual", label: "Big" });
      expect(version).toMatchObject({ data: "too_large", dataChanged: true });
      await withProjectDatabase(small, projectId, (sql) => sql`insert into notes values ('later')`);
      expect((await restoreVersion(small, grantedAccess(owner, projectId), version.id)).data).toBe("not_included");
      const rows = await withProjectDatabase(small, projectId, (sql) => sql`select body from notes order by body`);
      expect(rows.map((r) => r.body)).toEqual(["kept", "later"]);
    } finally {
      await small.closeAppDatabases();
    }
  }, 120_000);

  test("a version's dump is a stored blob the sweep keeps while a version names it", async () => {
    const projectId = await newProject();
    await withProjectDatabase(ctx, projectId, (sql) => sql`create table t (x int)`);
    const { version } = await takeVersion(ctx, { projectId, source: "manual", label: "With data" });
    const sha256 = version.dataState.sha256!;
    await ctx.sql`update blobs set last_used_at = now() - interval '1 day' where sha256 = ${sha256}`;
    await sweepBlobs(ctx, 60);
    expect(await ctx.store.get(blobs.blobKey(sha256))).not.toBeNull();
    // An embedded database nobody connected to since is not dumped again: the same state comes back.
    if (ctx.appDatabases.kind === "embedded") {
      await ctx.store.delete(blobs.blobKey(sha256));
      expect(await captureData(ctx, projectId)).toEqual(version.dataState);
    }
  }, 120_000);
});
