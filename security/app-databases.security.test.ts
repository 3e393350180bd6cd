/**
 * Attack replayed: an app (or the agent, or a person at its terminal) uses its project's database credentials to
 * read another project's data or the app builder's own, or to reach the host through the database server
 * (COPY … TO PROGRAM, pg_read_file, an untrusted extension, ALTER SYSTEM).
 * Safe outcome: every one is refused, on PostgreSQL (TEST_DATABASE_URL) and on the embedded PGlite default.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import postgres from "postgres";
import { createProject } from "../api/src/services/projects";
import { ensureProjectDatabase, projectDatabaseUrl, withProjectDatabase } from "../api/src/services/app-databases";
import { appDatabasesContext } from "../api/src/test/app-databases";
import { testDb } from "../api/src/test/test-db";

let ctx: Awaited<ReturnType<typeof appDatabasesContext>>;
let a: { id: string; url: URL };
let b: { id: string; url: URL };
const gateways: { close(): Promise<void> }[] = [];

beforeAll(async () => {
  ctx = await appDatabasesContext();
  const owner = await ctx.newUser("isolation");
  const make = async (name: string) => {
    const id = (await createProject(ctx, owner, { name })).id;
    await ensureProjectDatabase(ctx, id);
    await withProjectDatabase(ctx, id, (sql) => sql`create table secrets_of_${sql.unsafe(name.toLowerCase())} (v text)`);
    return { id, url: new URL(await projectDatabaseUrl(ctx, id, "local")) };
  };
  a = await make("A");
  b = await make("B");
}, 180_000);
afterAll(async () => {
  for (const g of gateways) await g.close();
  await ctx.closeAppDatabases();
});

/** Tries a connection and a query; returns "connected" or the error's message. */
async function tryConnect(options: postgres.Options<Record<string, never>>): Promise<string> {
  const sql = postgres({ max: 1, connect_timeout: 30, onnotice: () => {}, ...options });
  try {
    await sql`select 1`;
    return "connected";
  } catch (error) {
    return (error as Error).message;
  } finally {
    await sql.end({ timeout: 1 });
  }
}

const gatewayOf = async (projectId: string) => {
  const gateway = await ctx.appDatabases.openGateway(projectId, `/tmp/isolation-${crypto.randomUUID().slice(0, 8)}.sock`);
  gateways.push(gateway);
  return gateway.path;
};
const credentials = (p: { url: URL }) => ({ username: p.url.username, password: decodeURIComponent(p.url.password), database: p.url.pathname.slice(1) });

describe(`project database isolation (${process.env.TEST_DATABASE_URL ? "PostgreSQL" : "PGlite"})`, () => {
  test("A's credentials do not open B's database, through B's gateway or A's", async () => {
    expect(await tryConnect({ path: await gatewayOf(a.id), ...credentials(a) })).toBe("connected");
    expect(await tryConnect({ path: await gatewayOf(b.id), ...credentials(a) })).not.toBe("connected");
    expect(
      await tryConnect({
        path: await gatewayOf(a.id),
        ...credentials(a),
        database: credentials(b).database === credentials(a).database ? "postgres" : credentials(b).database,
      }),
    ).not.toBe("connected");
  }, 60_000);

  test("nor the app builder's own database", async () => {
    const db = await testDb();
    expect(
      await tryConnect({
        path: await gatewayOf(a.id),
        ...credentials(a),
        database: "target" in db && "database" in db.target ? db.target.database : "postgres",
      }),
    ).not.toBe("connected");
    if ("database" in db.target) {
      // Straight to the server too (as an E2B sandbox would connect), past any gateway.
      const direct = { host: db.target.hostname, port: db.target.port, ...credentials(a) };
      expect(await tryConnect({ ...direct, database: db.target.database })).toContain("permission denied");
      expect(await tryConnect({ ...direct, database: credentials(b).database })).toContain("permission denied");
      expect(await tryConnect(direct)).toBe("connected");
    }
  }, 60_000);

  const refused = async (statement: string) =>
    withProjectDatabase(ctx, a.id, (sql) => sql.unsafe(statement)).then(
      () => "ran",
      (error: { code?: string; message: string }) => `${error.code}: ${error.message}`,
    );

  test("COPY … TO PROGRAM, pg_read_file and ALTER SYSTEM are refused", async () => {
    expect(await refused("copy (select 1) to program 'id'")).toStartWith("42501");
    expect(await refused("create temp table t (a text); copy t from program 'id'")).toStartWith("42501");
    expect(await refused("select pg_read_file('/etc/passwd')")).toStartWith("42501");
    expect(await refused("select pg_ls_dir('/')")).toStartWith("42501");
    expect(await refused("alter system set work_mem = '1GB'")).toStartWith("42501");
  }, 60_000);

  test("an untrusted extension cannot be created", async () => {
    for (const extension of ["file_fdw", "dblink", "adminpack", "plpython3u"]) {
      // 42501: permission denied (installed, untrusted); 0A000: not installed here. Either way, not created.
      expect(await refused(`create extension ${extension}`)).toMatch(/^(42501|0A000|58P01):/);
    }
    expect(
      await withProjectDatabase(ctx, a.id, (sql) => sql`select extname from pg_extension where extname in ('file_fdw', 'dblink', 'adminpack', 'plpython3u')`),
    ).toHaveLength(0);
  }, 60_000);
});
