/**
 * The project lock: callers on one client take turns in memory; another instance (here a second process
 * with its own connection pool, against the same real PostgreSQL) waits on the advisory lock.
 */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import postgres from "postgres";
import type { Sql } from "../../db/client";
import { testDb } from "../../test/test-db";
import { withProjectLock } from "./project-lock";

const gate = () => {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
};

describe("withProjectLock", () => {
  test("on one client, work on a project runs one at a time; other projects do not wait", async () => {
    const { sql } = await testDb();
    const [project, other] = [crypto.randomUUID(), crypto.randomUUID()];
    const order: string[] = [];
    const first = gate();
    const entered = gate();
    const a = withProjectLock(sql, project, async () => {
      order.push("a");
      entered.open();
      await first.opened;
      order.push("a done");
    });
    await entered.opened;
    const b = withProjectLock(sql, project, async () => void order.push("b"));
    await withProjectLock(sql, other, async () => void order.push("other"));
    await Bun.sleep(50);
    expect(order).toEqual(["a", "other"]);
    first.open();
    await Promise.all([a, b]);
    expect(order).toEqual(["a", "other", "a done", "b"]);
  });

  test.skipIf(!process.env.TEST_DATABASE_URL)(
    "another instance, with its own pool, waits until this one lets go",
    async () => {
      const db = await testDb();
      if (!("database" in db.target)) throw new Error("expected a PostgreSQL test database");
      const url = new URL(process.env.TEST_DATABASE_URL!);
      url.pathname = `/${db.target.database}`;
      const here = postgres(url.toString(), { max: 4, onnotice: () => {} }) as unknown as Sql;
      const projectId = crypto.randomUUID();
      const held = gate();
      const entered = gate();
      try {
        const mine = withProjectLock(here, projectId, async () => {
          entered.open();
          await held.opened;
        });
        await entered.opened;

        // The other instance: a separate process, sharing nothing with this one but the database.
        const other = Bun.spawn(
          [
            process.execPath,
            "-e",
            `import postgres from "postgres";
           import { withProjectLock } from ${JSON.stringify(join(import.meta.dir, "project-lock.ts"))};
           const sql = postgres(${JSON.stringify(url.toString())}, { max: 4, onnotice: () => {}, connection: { application_name: "other-instance" } });
           console.log("asking");
           await withProjectLock(sql, ${JSON.stringify(projectId)}, async () => console.log("locked at " + Date.now()));
           await sql.end();`,
          ],
          { cwd: join(import.meta.dir, "../../../.."), stdout: "pipe", stderr: "inherit" },
        );
        const output = new Response(other.stdout).text();
        // Give it ample time to start, connect and ask: it must still be waiting.
        await Bun.sleep(2_000);
        const [row] = await here<{ waiting: number }[]>`
        select count(*)::int as waiting from pg_stat_activity
        where datname = ${db.target.database} and application_name = 'other-instance' and query like '%pg_try_advisory_lock%'`;
        expect(row!.waiting).toBeGreaterThanOrEqual(1); // it is polling the database, not sleeping on something else
        const releasedAt = Date.now();
        held.open();
        await mine;
        expect(await other.exited).toBe(0);
        const text = await output;
        expect(text).toContain("asking");
        const lockedAt = Number(/locked at (\d+)/.exec(text)?.[1]);
        expect(lockedAt).toBeGreaterThanOrEqual(releasedAt);
      } finally {
        held.open();
        await here.end();
      }
    },
    30_000,
  );
});
