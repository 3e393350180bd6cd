/** The project database service on the test database's kind (PostgreSQL with TEST_DATABASE_URL, else PGlite). */
import { grantedAccess } from "../../test/access";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import postgres from "postgres";
import { appDatabasesContext } from "../../test/app-databases";
import { createProject, deleteProject } from "../projects";
import { dropProjectDatabases, ensureProjectDatabase, projectDatabaseSize, projectDatabaseUrl, withProjectDatabase } from "./index";

let ctx: Awaited<ReturnType<typeof appDatabasesContext>>;
let owner: string;
const newProject = async () => (await createProject(ctx, owner, { name: "Data" })).id;

beforeAll(async () => {
  ctx = await appDatabasesContext({ maxBytes: 12 * 1024 * 1024 });
  owner = await ctx.newUser("dbowner");
});
afterAll(async () => {
  await ctx.closeAppDatabases();
});

describe(`project databases (${process.env.TEST_DATABASE_URL ? "PostgreSQL" : "PGlite"})`, () => {
  test("made on first use, once; queries run as the project's own role, which is no superuser", async () => {
    const id = await newProject();
    const [a, b] = await Promise.all([ensureProjectDatabase(ctx, id), ensureProjectDatabase(ctx, id)]);
    expect(a).toEqual(b);
    expect(a.status).toBe("ready");
    expect(a.kind).toBe(ctx.appDatabases.kind);
    const who = await withProjectDatabase(ctx, id, async (sql) => {
      await sql`create table todos (id serial primary key, title text not null)`;
      await sql`insert into todos (title) values ('milk')`;
      const [row] = await sql<
        { user: string; db: string; su: boolean }[]
      >`select current_user as user, current_database() as db, (select rolsuper from pg_roles where rolname = current_user) as su`;
      return row!;
    });
    expect(who).toEqual({ user: a.role, db: a.name, su: false });
    expect(await withProjectDatabase(ctx, id, (sql) => sql`select title from todos`)).toEqual([{ title: "milk" }] as never);
    expect(await projectDatabaseSize(ctx, id)).toBeGreaterThan(0);
  }, 120_000);

  test("the role has no superuser, CREATEDB, CREATEROLE, replication, nor the server-file roles", async () => {
    const id = await newProject();
    const db = await ensureProjectDatabase(ctx, id);
    const attrs = await withProjectDatabase(ctx, id, async (sql) => {
      const [row] = await sql`
        select rolsuper, rolcreatedb, rolcreaterole, rolreplication, rolbypassrls,
               pg_has_role(current_user, 'pg_read_server_files', 'member') as read_files,
               pg_has_role(current_user, 'pg_write_server_files', 'member') as write_files,
               pg_has_role(current_user, 'pg_execute_server_program', 'member') as programs
        from pg_roles where rolname = current_user`;
      return row;
    });
    expect(attrs).toEqual({
      rolsuper: false,
      rolcreatedb: false,
      rolcreaterole: false,
      rolreplication: false,
      rolbypassrls: false,
      read_files: false,
      write_files: false,
      programs: false,
    });
    expect(db.role).toBeTruthy();
  }, 60_000);

  test("the gateway refuses a wrong password, another role and another database", async () => {
    const id = await newProject();
    const db = await ensureProjectDatabase(ctx, id);
    const url = new URL(await projectDatabaseUrl(ctx, id, "local"));
    const gateway = await ctx.appDatabases.openGateway(id, `/tmp/appdb-gw-${crypto.randomUUID().slice(0, 8)}.sock`);
    const attempt = async (over: { username?: string; password?: string; database?: string }) => {
      const sql = postgres({
        path: gateway.path,
        username: db.role,
        password: decodeURIComponent(url.password),
        database: db.name,
        max: 1,
        connect_timeout: 10,
        ...over,
      });
      try {
        return String((await sql`select 1 as one`)[0]!.one);
      } catch (error) {
        return String((error as Error).message);
      } finally {
        await sql.end({ timeout: 1 });
      }
    };
    try {
      expect(await attempt({})).toBe("1");
      expect(await attempt({ password: "wrong" })).toContain("password authentication failed");
      expect(await attempt({ username: "postgres" })).toContain("not permitted");
      expect(await attempt({ database: "postgres" })).toContain("not reachable here");
    } finally {
      await gateway.close();
    }
  }, 60_000);

  test("past APP_DATABASE_MAX_MB writes fail naming the limit, reads work; under it again, writes work", async () => {
    const id = await newProject();
    await ensureProjectDatabase(ctx, id);
    await withProjectDatabase(ctx, id, async (sql) => {
      await sql`create table blobs (b text)`;
      // 16 MB of barely compressible text: over the 12 MB limit.
      await sql`insert into blobs select string_agg(md5(random()::text), '') from generate_series(1, 4000) g, generate_series(1, 130) h group by h`;
    });
    expect((await ctx.appDatabases.enforceLimit(id)).status).toBe("read_only");
    const write = await withProjectDatabase(ctx, id, (sql) => sql`insert into blobs values ('x')`).catch((e: Error) => e.message);
    expect(write).toContain("APP_DATABASE_MAX_MB = 12 MB");
    expect(await withProjectDatabase(ctx, id, async (sql) => Number((await sql`select count(*)::int as n from blobs`)[0]!.n))).toBe(130);
    await withProjectDatabase(ctx, id, (sql) => sql.begin("read write", (tx) => tx`drop table blobs`));
    if (ctx.appDatabases.kind === "postgres") {
      expect((await ctx.appDatabases.enforceLimit(id)).status).toBe("ready");
      expect(await withProjectDatabase(ctx, id, (sql) => sql`create table ok (a int)`.then(() => "written"))).toBe("written");
    }
  }, 120_000);

  test("deleting the project drops its database; dropping again is fine", async () => {
    const id = await newProject();
    const db = await ensureProjectDatabase(ctx, id);
    await deleteProject(ctx, grantedAccess(owner, id));
    expect(await ctx.sql`select 1 from app_databases where project_id = ${id}`).toHaveLength(0);
    if (ctx.appDatabasesConfig.kind === "postgres") {
      const admin = postgres(ctx.appDatabasesConfig.adminUrl, { max: 1 });
      expect(await admin`select 1 from pg_database where datname = ${db.name}`).toHaveLength(0);
      expect(await admin`select 1 from pg_roles where rolname = ${db.role}`).toHaveLength(0);
      await admin.end();
    }
    await dropProjectDatabases(ctx, id);
  }, 60_000);
});
