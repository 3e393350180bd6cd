/**
 * Project databases (each app's own PostgreSQL for development): on the server named by APP_DATABASES_URL, else
 * on DATABASE_URL's server, else one embedded PGlite per project under DATA_DIR/app-databases.
 *
 * @example
 * appDatabasesConfig(e, { kind: "embedded", … }, "/srv/data"); // { kind: "embedded", dir: "/srv/data/app-databases", spare: true, maxBytes: 268435456, versionMaxBytes: 52428800, idleMs: 60000 }
 */
import { resolve } from "node:path";
import { z } from "zod";
import type { DatabaseConfig } from "./database";
import { countOrOff, optionalString, positiveInt } from "./values";

export const appDatabasesEnv = {
  APP_DATABASES_URL: optionalString.pipe(
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, "must start with postgres:// or postgresql://")
      .optional(),
  ),
  APP_DATABASE_MAX_MB: positiveInt(256),
  APP_DATABASE_VERSION_MAX_MB: positiveInt(50),
  /** Embedded only: keep a spare PGlite started for the next new project (1), or not (0). */
  APP_DATABASE_SPARE: countOrOff(1),
};

/**
 * `adminUrl`: a connection allowed to create databases and roles. `maxBytes`: past it a project database turns
 * read-only. `versionMaxBytes`: a larger database is left out of versions ("data not included"). `idleMs`: an embedded project database with no connection for this long is stopped (memory back).
 */
export type AppDatabasesConfig = ({ kind: "postgres"; adminUrl: string } | { kind: "embedded"; dir: string; spare?: boolean }) & {
  maxBytes: number;
  versionMaxBytes: number;
  idleMs: number;
};

export type AppDatabasesSection = { appDatabases: AppDatabasesConfig };

export function appDatabasesConfig(e: z.infer<z.ZodObject<typeof appDatabasesEnv>>, database: DatabaseConfig, dataDir: string): AppDatabasesSection {
  const common = { maxBytes: e.APP_DATABASE_MAX_MB * 1024 * 1024, versionMaxBytes: e.APP_DATABASE_VERSION_MAX_MB * 1024 * 1024, idleMs: 60_000 };
  const adminUrl = e.APP_DATABASES_URL ?? (database.kind === "postgres" ? database.url : undefined);
  return {
    appDatabases: adminUrl
      ? { kind: "postgres", adminUrl, ...common }
      : { kind: "embedded", dir: resolve(dataDir, "app-databases"), spare: e.APP_DATABASE_SPARE > 0, ...common },
  };
}
