/**
 * The database: PostgreSQL when DATABASE_URL is set, else embedded PGlite under DATA_DIR.
 *
 * @example
 * databaseConfig(e, "/srv/data"); // { kind: "embedded", dir: "/srv/data/pg", poolMax: 1, queryTimeoutMs: 5000 }
 */
import { resolve } from "node:path";
import { z } from "zod";
import { countOrOff, optionalString, positiveInt } from "./values";

export const databaseEnv = {
  DATABASE_URL: optionalString.pipe(
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, "must start with postgres:// or postgresql://")
      .optional(),
  ),
  DATABASE_POOL_MAX: positiveInt(10),
  DATABASE_QUERY_TIMEOUT_S: countOrOff(5),
};

/** queryTimeoutMs: how long a query waits for the server before its connection is discarded (0 = forever). */
export type DatabaseConfig =
  | { kind: "postgres"; url: string; poolMax: number; queryTimeoutMs: number }
  | { kind: "embedded"; dir: string; poolMax: number; queryTimeoutMs: number };

export function databaseConfig(e: z.infer<z.ZodObject<typeof databaseEnv>>, dataDir: string): DatabaseConfig {
  return e.DATABASE_URL
    ? { kind: "postgres", url: e.DATABASE_URL, poolMax: e.DATABASE_POOL_MAX, queryTimeoutMs: e.DATABASE_QUERY_TIMEOUT_S * 1000 }
    : // PGlite is one database session behind every socket connection: interleaved connections corrupt each
      // other's extended-protocol state ("portal does not exist"), so embedded mode uses exactly one.
      { kind: "embedded", dir: resolve(dataDir, "pg"), poolMax: 1, queryTimeoutMs: e.DATABASE_QUERY_TIMEOUT_S * 1000 };
}
