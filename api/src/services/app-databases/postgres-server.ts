/**
 * Project databases on a real PostgreSQL, made through an admin connection (APP_DATABASES_URL, else
 * DATABASE_URL). Each project gets a database owned by its own login role, with no superuser, CREATEDB,
 * CREATEROLE, replication or BYPASSRLS, and CONNECT revoked from PUBLIC, so only that role (and admins) may
 * connect. The app builder's own database gets CONNECT revoked from PUBLIC too, so project roles cannot reach it.
 *
 * @example
 * const server = createPostgresServer({ adminUrl, appSql, logger });
 * await server.create({ projectId, name, role, password });
 */
import { createSql, type Sql } from "../../db/client";
import type { Logger } from "../../lib/logger";
import type { DatabaseIdentity, DatabaseServer } from "./types";

/** Identifiers here are only ever `app_<hex>` (names.ts); quoting is belt and braces. */
const ident = (name: string) => {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name)) throw new Error(`unexpected identifier ${name}`);
  return `"${name}"`;
};
const literal = (text: string) => `'${text.replace(/'/g, "''")}'`;

/** SQLSTATEs of "already exists" and "does not exist", met when two instances race or a drop is repeated. */
const DUPLICATE = new Set(["42P04", "42710", "23505"]);

export function createPostgresServer(o: { adminUrl: string; appSql: Sql; logger: Logger }): DatabaseServer {
  const admin = createSql(o.adminUrl, { max: 2, queryTimeoutMs: () => 30_000 });
  const url = new URL(o.adminUrl);
  const host = url.hostname || "127.0.0.1";
  const port = Number(url.port || 5432);
  let sealed: Promise<void> | null = null;

  /**
   * Once per process: PUBLIC may not connect to the app builder's own database (idempotent). Other databases
   * on a shared server are not ours to change; a dedicated APP_DATABASES_URL server avoids the question.
   */
  const sealOwnDatabase = () =>
    (sealed ??= (async () => {
      const [row] = await o.appSql<{ db: string }[]>`select current_database() as db`;
      await o.appSql
        .unsafe(`revoke connect, temporary on database "${row!.db.replace(/"/g, '""')}" from public`)
        .catch((error) =>
          o.logger.warn("could not revoke CONNECT from PUBLIC on the app builder's database; project roles may connect to it", { error: String(error) }),
        );
    })());

  const swallow = (codes: Set<string>) => (error: { code?: string }) => {
    if (!codes.has(error.code ?? "")) throw error;
  };

  return {
    kind: "postgres",
    async create(id) {
      await sealOwnDatabase();
      const role = ident(id.role);
      const [exists] = await admin`select 1 from pg_roles where rolname = ${id.role}`;
      if (!exists) {
        await admin
          .unsafe(
            `create role ${role} login password ${literal(id.password)} nosuperuser nocreatedb nocreaterole noreplication nobypassrls connection limit 50`,
          )
          .catch(swallow(DUPLICATE));
      }
      const [db] = await admin`select 1 from pg_database where datname = ${id.name}`;
      // CREATE DATABASE cannot run in a transaction; a concurrent create fails with 42P04, which is fine.
      if (!db) await admin.unsafe(`create database ${ident(id.name)} owner ${role}`).catch(swallow(DUPLICATE));
      await admin.unsafe(`revoke all on database ${ident(id.name)} from public`);
      await admin.unsafe(`grant connect, temporary on database ${ident(id.name)} to ${role}`);
    },
    async drop(id) {
      await admin`select pg_terminate_backend(pid) from pg_stat_activity where datname = ${id.name} and pid <> pg_backend_pid()`;
      await admin.unsafe(`drop database if exists ${ident(id.name)} with (force)`);
      await admin.unsafe(`drop role if exists ${ident(id.role)}`);
    },
    async size(id) {
      const [row] = await admin<{ bytes: number }[]>`select pg_database_size(${id.name})::float8 as bytes`;
      return row!.bytes;
    },
    async setReadOnly(id, readOnly) {
      await admin.unsafe(`alter database ${ident(id.name)} set default_transaction_read_only = ${readOnly ? "on" : "off"}`);
      // Settings reach sessions when they start: end the open ones (clients reconnect).
      await admin`select pg_terminate_backend(pid) from pg_stat_activity where datname = ${id.name} and pid <> pg_backend_pid()`;
    },
    async open() {
      return { target: { host, port }, release: () => {} };
    },
    publicAddress() {
      const local = host === "localhost" || host === "::1" || /^127\./.test(host) || host === "[::1]";
      return local ? null : { host, port };
    },
    close: () => admin.end({ timeout: 5 }),
  };
}

/** A client connected as the project's role (never as admin), straight to the server. */
export function roleClient(target: { host: string; port: number } | { path: string }, id: DatabaseIdentity, max: number): Sql {
  // No watchdog bound (0): callers set statement_timeout for their own queries. The first connection may
  // start an embedded database (seconds on a busy machine), hence the longer connect time-out.
  return createSql({ ...target, database: id.name, username: id.role, password: id.password }, { max, queryTimeoutMs: () => 0, connectTimeoutS: 30 });
}
