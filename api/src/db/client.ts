/**
 * The database connection. The app always speaks postgres.js: to a real PostgreSQL when DATABASE_URL is
 * set, otherwise to an embedded PGlite exposed on a private Unix socket by @electric-sql/pglite-socket.
 */
import postgres from "postgres";
import type { Config } from "../lib/config";
import { startEmbeddedPostgres } from "./embedded";
import { type PoolStats, watchedSocket } from "./query-watchdog";

export type Sql = postgres.Sql<Record<string, never>>;

export type Db = {
  sql: Sql;
  /** A human description without secrets, for the start-up summary. */
  kind: "postgres" | "embedded";
  close(): Promise<void>;
  /** The bounded wait per query (0 = none); start-up raises it while migrations wait on their lock. */
  setQueryTimeout(ms: number): void;
  /** The app's pool (DATABASE_POOL_MAX): connections open and those with a query under way, for /metrics. */
  pool: PoolStats & { max: number };
};

const connectionDefaults = {
  // Quiet NOTICEs such as "relation already exists, skipping".
  onnotice: () => {},
  // Fail fast when the server is down so routes answer 503 quickly instead of hanging.
  connect_timeout: 5,
  // Keep the wire in camelCase-free snake_case; row mapping is explicit in each query module.
  transform: { undefined: null },
} as const;

/**
 * A postgres.js client whose queries give up (503) when the server stops answering; see query-watchdog.ts.
 * The watchdog also sets up TLS (`sslmode` in the URL), so postgres.js itself is told `ssl: false`.
 */
export function createSql(
  target: string | postgres.Options<Record<string, never>>,
  options: { max: number; queryTimeoutMs: () => number; connectTimeoutS?: number; stats?: PoolStats },
): Sql {
  const open = (settings: postgres.Options<Record<string, never>>) =>
    (typeof target === "string" ? postgres(target, settings) : postgres({ ...target, ...settings })) as unknown as Sql;
  // postgres.js's own reading of sslmode/ssl (URL, options, PGSSL); creating a client opens no connection.
  const ssl = open({}).options.ssl;
  const socket = watchedSocket(options.queryTimeoutMs, ssl, options.stats);
  const connect_timeout = options.connectTimeoutS ?? connectionDefaults.connect_timeout;
  return open({ ...connectionDefaults, connect_timeout, max: options.max, ssl: false, socket } as postgres.Options<Record<string, never>>);
}

export async function connectDb(config: Config["database"]): Promise<Db> {
  let queryTimeoutMs = config.queryTimeoutMs;
  const setQueryTimeout = (ms: number) => void (queryTimeoutMs = ms);
  const pool = { open: 0, busy: 0, max: config.poolMax };
  if (config.kind === "postgres") {
    const sql = createSql(config.url, { max: config.poolMax, queryTimeoutMs: () => queryTimeoutMs, stats: pool });
    return { sql, kind: "postgres", close: () => sql.end({ timeout: 5 }), setQueryTimeout, pool };
  }
  const embedded = await startEmbeddedPostgres({ dataDir: config.dir, maxConnections: config.poolMax + 2 });
  const sql = createSql(
    { path: embedded.socketPath, database: "postgres", username: "postgres" },
    { max: config.poolMax, queryTimeoutMs: () => queryTimeoutMs, stats: pool },
  );
  return {
    sql,
    kind: "embedded",
    pool,
    setQueryTimeout,
    close: async () => {
      await sql.end({ timeout: 5 });
      await embedded.stop();
    },
  };
}
