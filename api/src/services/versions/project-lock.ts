/**
 * Serialises version work per project across every instance: a restore and the versions taken around it
 * (or an agent run's "before" version) never interleave, so each sees the files the other left.
 *
 * @example
 * await withProjectLock(ctx.sql, projectId, () => takeVersionLocked(ctx, input));
 */
import type { Sql } from "../../db/client";

// Advisory locks keyed (namespace, hashtext(project id)): the two-int key space never meets the migration
// lock's single bigint (db/migrate.ts). Two projects whose ids hash alike merely take turns.
const PROJECT_LOCK_NAMESPACE = 20_013;
const POLL_FIRST_MS = 20;
const POLL_MAX_MS = 250;

type Instance = { tails: Map<string, Promise<unknown>>; held: number; waiting: (() => void)[] };
const instances = new WeakMap<Sql, Instance>();

/**
 * Runs `work` while holding the project's lock. Within one client (one instance) callers queue in memory;
 * across instances a PostgreSQL session advisory lock, taken on a reserved connection, makes the second wait.
 * The lock is polled with pg_try_advisory_lock rather than awaited, so no query sits silent past the query
 * watchdog's bound while another instance restores a large project. A pool of one connection (embedded
 * PGlite, which one process owns and whose single session makes advisory locks re-entrant) has only the queue.
 */
export function withProjectLock<T>(sql: Sql, projectId: string, work: () => Promise<T>): Promise<T> {
  const instance = instanceOf(sql);
  const previous = instance.tails.get(projectId) ?? Promise.resolve();
  const locked = () => (maxConnections(sql) < 2 ? work() : withAdvisoryLock(sql, instance, projectId, work));
  const result = previous.then(locked, locked);
  const tail = result.catch(() => {});
  instance.tails.set(projectId, tail);
  void tail.then(() => {
    if (instance.tails.get(projectId) === tail) instance.tails.delete(projectId);
  });
  return result;
}

function instanceOf(sql: Sql): Instance {
  let instance = instances.get(sql);
  if (!instance) instances.set(sql, (instance = { tails: new Map(), held: 0, waiting: [] }));
  return instance;
}

const maxConnections = (sql: Sql) => Number((sql.options as { max?: number }).max ?? 10);

async function withAdvisoryLock<T>(sql: Sql, instance: Instance, projectId: string, work: () => Promise<T>): Promise<T> {
  // At most half the pool holds locks at once, so the work itself always finds connections to run on.
  while (instance.held >= Math.floor(maxConnections(sql) / 2)) await new Promise<void>((resolve) => instance.waiting.push(resolve));
  instance.held++;
  try {
    const connection = await sql.reserve();
    try {
      for (let wait = POLL_FIRST_MS; ; wait = Math.min(wait * 2, POLL_MAX_MS)) {
        const [row] = await connection<{ locked: boolean }[]>`
          select pg_try_advisory_lock(${PROJECT_LOCK_NAMESPACE}, hashtext(${projectId})) as locked`;
        if (row!.locked) break;
        await Bun.sleep(wait);
      }
      try {
        return await work();
      } finally {
        // Should the unlock fail, the connection is broken, and its session's end releases the lock.
        await connection`select pg_advisory_unlock(${PROJECT_LOCK_NAMESPACE}, hashtext(${projectId}))`.catch(() => {});
      }
    } finally {
      connection.release();
    }
  } finally {
    instance.held--;
    instance.waiting.shift()?.();
  }
}

/** Runs `work` on every item, at most `limit` at a time (S3 is slow one by one; hundreds at once is rude). */
export async function forEachLimit<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
