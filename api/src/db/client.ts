/**
 * The database connection. The app always speaks postgres.js: to a real PostgreSQL when DATABASE_URL is
 * set, otherwise to an embedded PGlite exposed on a private Unix socket by @electric-sql/pglite-socket.
 */
import postgres from "postgres";
import type { Config } from "../lib/config";
import { startEmbeddedPostgres } from "./embedded";

export type Sql = postgres.Sql<Record<string, never>>;

export type Db = {
  sql: Sql;
  /** A human description without secrets, for the start-up summary. */
  kind: "postgres" | "embedded";
  close(): Promise<void>;
};

const connectionDefaults = {
  // Quiet NOTICEs such as "relation already exists, skipping".
  onnotice: () => {},
  // Fail fast when the server is down so routes answer 503 quickly instead of hanging.
  connect_timeout: 5,
  // Keep the wire in camelCase-free snake_case; row mapping is explicit in each query module.
  transform: { undefined: null },
} as const;

export async function connectDb(config: Config["database"]): Promise<Db> {
  if (config.kind === "postgres") {
    const sql = postgres(config.url, { ...connectionDefaults, max: config.poolMax }) as unknown as Sql;
    return { sql, kind: "postgres", close: () => sql.end({ timeout: 5 }) };
  }
  const embedded = await startEmbeddedPostgres({ dataDir: config.dir, maxConnections: config.poolMax + 2 });
  const sql = postgres({
    ...connectionDefaults,
    path: embedded.socketPath,
    database: "postgres",
    username: "postgres",
    max: config.poolMax,
  }) as unknown as Sql;
  return {
    sql,
    kind: "embedded",
    close: async () => {
      await sql.end({ timeout: 5 });
      await embedded.stop();
    },
  };
}
