/**
 * A real local sandbox reaches its project's database at DATABASE_URL (127.0.0.1:5432 inside, forwarded by the
 * supervisor to the host's gateway socket), with the unchanged `postgres` package, and still reaches no port of
 * the host.
 */
import { grantedAccess } from "../../test/access";
import { afterAll, describe, expect, test } from "bun:test";
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../../lib/config";
import { silentLogger } from "../../lib/logger";
import { createSandboxProvider } from "../../sandbox/index";
import { appDatabasesContext } from "../../test/app-databases";
import { localSuiteGate } from "../../test/local-sandbox-support";
import { createProject } from "../projects";
import { createProjectSandboxes } from "../sandboxes";
import { withProjectDatabase } from "./index";

/** The `postgres` package's CommonJS build, copied as it is into the project. */
const pgjsFiles = () => {
  const dir = join(import.meta.dir, "../../../../node_modules/postgres/cjs/src");
  return readdirSync(dir).map((name) => ({ path: `pgjs/${name}`, text: readFileSync(join(dir, name), "utf8") }));
};

const CLIENT = `
const postgres = require("./pgjs/index.js");
const sql = postgres(process.env.DATABASE_URL, { max: 1, onnotice: () => {} });
(async () => {
  await sql\`create table if not exists notes (id serial primary key, body text)\`;
  await sql\`insert into notes (body) values (\${process.argv[2]})\`;
  const rows = await sql\`select body from notes order by id\`;
  console.log(JSON.stringify({ rows: rows.map((r) => r.body), user: (await sql\`select current_user as u\`)[0].u }));
  await sql.end();
})().catch((e) => { console.log("ERROR " + e.message); process.exit(1); });
`;

const PROBE = `
const net = require("node:net");
const [host, port] = process.argv.slice(2);
const s = net.connect({ host, port: Number(port), timeout: 3000 });
s.on("connect", () => { console.log("open"); s.destroy(); });
s.on("error", (e) => console.log("refused " + e.code));
s.on("timeout", () => { console.log("refused timeout"); s.destroy(); });
`;

if (await localSuiteGate("project database from a sandbox")) {
  describe("project database from a local sandbox", async () => {
    const ctx = await appDatabasesContext();
    const dataDir = mkdtempSync(join(tmpdir(), "appdb-sandbox-"));
    chmodSync(dataDir, 0o755);
    const config = loadConfig({ DATA_DIR: dataDir, FIREBASE_AUTH_EMULATOR_HOST: "127.0.0.1:9", FIREBASE_PROJECT_ID: "demo-appdb" });
    const provider = createSandboxProvider(config, silentLogger);
    const sandboxes = createProjectSandboxes({ ...ctx, provider, config });
    const owner = await ctx.newUser("sbxdb");
    const project = await createProject(ctx, owner, { name: "Notes" });
    afterAll(async () => {
      await sandboxes.shutdown();
      await ctx.closeAppDatabases();
      rmSync(dataDir, { recursive: true, force: true });
    });

    test("DATABASE_URL works unchanged with the postgres package, as the project's role, and the host sees the rows", async () => {
      const sandbox = await sandboxes.ensure(grantedAccess(owner, project.id));
      for (const f of [...pgjsFiles(), { path: "client.js", text: CLIENT }]) await sandbox.files.write(f.path, f.text);
      const url = (await sandbox.run('echo "$DATABASE_URL"')).stdout.trim();
      expect(url).toMatch(/^postgres:\/\/[a-z0-9_]+:[A-Za-z0-9_-]+@127\.0\.0\.1:5432\/[a-z0-9_]+$/);
      const first = await sandbox.run("node client.js first", { timeoutMs: 60_000 });
      expect(first.stdout).toContain('"rows":["first"]');
      const second = await sandbox.run("bun client.js second", { timeoutMs: 60_000 });
      const { rows, user } = JSON.parse(second.stdout.trim()) as { rows: string[]; user: string };
      expect(rows).toEqual(["first", "second"]);
      expect(user).toBe(new URL(url).username);
      expect(await withProjectDatabase(ctx, project.id, (sql) => sql`select body from notes order by id`)).toEqual([
        { body: "first" },
        { body: "second" },
      ] as never);
    }, 120_000);

    test("the sandbox still reaches no port of the host", async () => {
      const sandbox = await sandboxes.ensure(grantedAccess(owner, project.id));
      await sandbox.files.write("probe.js", PROBE);
      for (const [host, port] of [
        ["10.0.2.2", "5432"],
        ["10.0.2.2", "22"],
        ["10.0.2.2", "3000"],
      ]) {
        expect((await sandbox.run(`node probe.js ${host} ${port}`, { timeoutMs: 20_000 })).stdout).toStartWith("refused");
      }
      // Inside, 127.0.0.1:5432 is the sandbox's own forwarder, and another loopback port has nothing behind it.
      expect((await sandbox.run("node probe.js 127.0.0.1 5432")).stdout).toStartWith("open");
      expect((await sandbox.run("node probe.js 127.0.0.1 5433")).stdout).toStartWith("refused");
    }, 120_000);
  });
}
