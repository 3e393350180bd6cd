/**
 * Names and passwords of project databases. Names come from the project id (so every instance agrees without
 * asking); the password is an HMAC of the role under the installation's random key, kept in app_secrets, so it
 * is unguessable, differs per project, and needs no storage of its own.
 *
 * @example
 * databaseNames("0b9f…"); // { name: "app_0b9f…", role: "app_0b9f…" }
 */
import { createHmac } from "node:crypto";
import type { Sql } from "../../db/client";
import type { DatabaseEnvironment } from "../../db/app-databases";
import { getOrCreateSecret } from "../../db/secrets";

/**
 * PostgreSQL identifiers: `app_` (development) or `prod_` (production) and the id's 32 hex digits (at most 37
 * characters, under the 63 limit).
 */
export function databaseNames(projectId: string, env: DatabaseEnvironment = "development"): { name: string; role: string } {
  const hex = projectId.replace(/-/g, "").toLowerCase();
  if (!/^[0-9a-f]{32}$/.test(hex)) throw new Error(`not a project id: ${projectId}`);
  const prefix = env === "production" ? "prod" : "app";
  return { name: `${prefix}_${hex}`, role: `${prefix}_${hex}` };
}

/** The embedded database of a project is alone in its own PGlite, so one fixed name serves every project. */
export const EMBEDDED_NAMES = { name: "app", role: "app" } as const;

const KEY_NAME = "app_database_key";
const keys = new WeakMap<Sql, Promise<string>>();

/**
 * The role's password: 43 URL-safe characters (usable unescaped in a postgres:// URL). Production's differs from
 * development's, so a development DATABASE_URL never opens production (the embedded kind uses one role name).
 */
export async function databasePassword(sql: Sql, projectId: string, env: DatabaseEnvironment = "development"): Promise<string> {
  let key = keys.get(sql);
  if (!key) {
    keys.set(sql, (key = getOrCreateSecret(sql, KEY_NAME)));
    key.catch(() => keys.delete(sql));
  }
  return createHmac("sha256", await key)
    .update(env === "production" ? `production-database:${projectId}` : `project-database:${projectId}`)
    .digest("base64url");
}
