/**
 * Applies the SQL migrations in ./migrations with postgres-shift (the postgres.js author's forward-only
 * tool: it records applied migrations in a table and runs pending ones in one transaction).
 * shift itself is not safe against two instances starting together, so the whole run holds a session
 * advisory lock on a reserved connection: the second instance waits, then finds nothing to do.
 * Embedded PGlite has one session behind every socket connection (advisory locks are re-entrant there),
 * so calls within one process are also queued in memory.
 */
import { fileURLToPath } from "node:url";
import shift from "postgres-shift";
import type { Sql } from "./client";

const MIGRATIONS_DIR = fileURLToPath(new URL("./migrations", import.meta.url));
// Any fixed 64-bit number unique to this app's migrations.
const MIGRATION_LOCK_KEY = 7_436_201_955_104;

let queue: Promise<unknown> = Promise.resolve();

/**
 * `lock: false` is for embedded PGlite: one process owns its data folder, the in-memory queue is enough,
 * and its single connection could not serve a reserved lock connection and the migration at once.
 */
export function migrate(sql: Sql, options: { lock?: boolean } = {}): Promise<void> {
  const run = queue.then(() => (options.lock === false ? shift({ sql, path: MIGRATIONS_DIR }) : migrateLocked(sql)));
  queue = run.catch(() => {});
  return run;
}

async function migrateLocked(sql: Sql): Promise<void> {
  const lock = await sql.reserve();
  try {
    await lock`select pg_advisory_lock(${MIGRATION_LOCK_KEY})`;
    await shift({ sql, path: MIGRATIONS_DIR });
  } finally {
    await lock`select pg_advisory_unlock(${MIGRATION_LOCK_KEY})`.catch(() => {});
    lock.release();
  }
}
