/**
 * This process's handle on project databases: the server they live on, a gateway socket per project for
 * host-side clients (agent tools, the Database API), gateways bound into local sandboxes, and the size limit.
 * Built once at start-up (server.ts) and carried in the services context as `appDatabases`.
 *
 * @example
 * const appDatabases = createAppDatabases({ config: config.appDatabases, sql, logger });
 * const db = await appDatabases.ensure(projectId); // { name, role, status: "ready", … }
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import {
  deleteAppDatabase,
  findAppDatabase,
  insertAppDatabase,
  recordAppDatabaseSize,
  type AppDatabaseRow,
  type DatabaseEnvironment,
} from "../../db/app-databases";
import type { Sql } from "../../db/client";
import type { AppDatabasesConfig } from "../../lib/config";
import { AppError } from "../../lib/errors";
import type { Logger } from "../../lib/logger";
import { createEmbeddedServer } from "./embedded-server";
import { startGateway, type Gateway, type GatewayUpstream } from "./gateway";
import { databaseNames, databasePassword, EMBEDDED_NAMES } from "./names";
import { createPostgresServer, roleClient } from "./postgres-server";
import type { DatabaseIdentity, DatabaseServer, ProjectDatabase } from "./types";

/** How often the size of a database in use is measured against APP_DATABASE_MAX_MB. */
const SIZE_CHECK_MS = 10_000;

export type AppDatabases = {
  readonly kind: "postgres" | "embedded";
  /** Which of a project's databases this handle makes and reaches. */
  readonly environment: DatabaseEnvironment;
  /** Whether the project has this database already (nothing is made). */
  exists(projectId: string): Promise<boolean>;
  readonly maxBytes: number;
  /** Past this size a database is left out of versions (APP_DATABASE_VERSION_MAX_MB). */
  readonly versionMaxBytes: number;
  /** Gets ready ahead of the first project (embedded: builds the template once); start-up runs it in the background. */
  warm(): Promise<void>;
  ensure(projectId: string): Promise<ProjectDatabase>;
  /**
   * Makes the database and gets it running (embedded: PGlite started, stopped again after the idle time), for a
   * process about to start with DATABASE_URL, so its first connection does not wait for PGlite's start.
   */
  prepare(projectId: string): Promise<void>;
  /** A client connected as the project's role through its gateway; `end()` it when done. */
  client(projectId: string, options?: { max?: number }): Promise<Sql>;
  size(projectId: string): Promise<number>;
  drop(projectId: string): Promise<void>;
  /** Measures the database and turns read-only on or off as it crosses the limit; returns the new state. */
  enforceLimit(projectId: string): Promise<ProjectDatabase>;
  /** Opens a gateway at `path` (owned by `owner`) leading to this project's database, made on first connection. */
  openGateway(projectId: string, path: string, owner?: { uid: number; gid: number }): Promise<Gateway>;
  /**
   * Serves a local sandbox's database socket (idempotent per path): what reaches it leads only to this
   * project's database. Closed when the sandbox's folder is gone (checked every SIZE_CHECK_MS) or on close().
   */
  serveSandbox(projectId: string, socket: { path: string; uid: number; gid: number }): Promise<void>;
  /**
   * A number that changes whenever a client may have changed the database through a gateway, or null when that
   * cannot be known here (a connection is open now, or the database lives on a server other instances also
   * reach). Equal readings mean nothing was written in between, so a version can reuse the last dump.
   */
  changeMark(projectId: string): number | null;
  /** Benchmarks and tests: waits for the embedded spare database being made (true when one is ready). */
  spareReady(): Promise<boolean>;
  /** Benchmarks and tests: a client as the project's role straight to the server, past the gateway. */
  directClient(projectId: string): Promise<{ sql: Sql; release(): void }>;
  /** The DATABASE_URL a sandbox process gets: through its local gateway, or the server's own address (E2B). */
  sandboxUrl(projectId: string, via: "local" | "remote"): Promise<string>;
  close(): Promise<void>;
};

export function createAppDatabases(o: { config: AppDatabasesConfig; sql: Sql; logger: Logger; environment?: DatabaseEnvironment }): AppDatabases {
  const { config, sql, logger } = o;
  const env = o.environment ?? "development";
  // Production databases live beside development's: embedded ones in a folder of their own (copied from the same
  // template, with no spare kept: a first publish may wait for a PGlite start), PostgreSQL ones under other names.
  const server: DatabaseServer & { warm?(): Promise<void>; spareReady?(): Promise<boolean> } =
    config.kind === "postgres"
      ? createPostgresServer({ adminUrl: config.adminUrl, appSql: sql, logger })
      : env === "production"
        ? createEmbeddedServer({ dir: join(config.dir, "production"), templateDir: join(config.dir, ".template"), idleMs: config.idleMs, spare: false, logger })
        : createEmbeddedServer({ dir: config.dir, idleMs: config.idleMs, spare: config.spare ?? true, logger });
  const socketDir = mkdtempSync(join(tmpdir(), env === "production" ? "app-db-prod-" : "app-db-"));
  const hostGateways = new Map<string, Promise<Gateway>>();
  const made = new Map<string, Promise<AppDatabaseRow>>();
  const limits = new Map<string, { readOnly: boolean; sizeBytes: number | null; checkedAt: number }>();
  const gateways = new Set<Gateway>();
  const sandboxGateways = new Map<string, Promise<Gateway>>();
  // Gateway connections per project: open now, and opened or closed so far (the change mark).
  const activity = new Map<string, { open: number; events: number }>();
  const noteActivity = (projectId: string, open: 1 | -1 | 0) => {
    const a = activity.get(projectId) ?? { open: 0, events: 0 };
    activity.set(projectId, { open: a.open + open, events: a.events + 1 });
  };

  const names = (projectId: string) => (server.kind === "embedded" ? EMBEDDED_NAMES : databaseNames(projectId, env));
  const identity = async (projectId: string): Promise<DatabaseIdentity> => ({
    projectId,
    ...names(projectId),
    password: await databasePassword(sql, projectId, env),
  });

  /** The row, creating the database first when there is none (creation is idempotent, so a race is harmless). */
  const row = (projectId: string) => {
    let pending = made.get(projectId);
    if (!pending) {
      pending = (async () => {
        const found = await findAppDatabase(sql, projectId, env);
        if (found) return found;
        await server.create(await identity(projectId));
        return insertAppDatabase(sql, { projectId, kind: server.kind, ...names(projectId) }, env);
      })();
      made.set(projectId, pending);
      pending.catch(() => made.delete(projectId));
    }
    return pending;
  };

  const describe = (r: AppDatabaseRow): ProjectDatabase => {
    const known = limits.get(r.projectId);
    const readOnly = known?.readOnly ?? r.readOnly;
    return {
      projectId: r.projectId,
      kind: r.kind,
      name: r.name,
      role: r.role,
      status: readOnly ? "read_only" : "ready",
      sizeBytes: known?.sizeBytes ?? r.sizeBytes,
      maxBytes: config.maxBytes,
    };
  };

  const enforceLimit = async (projectId: string): Promise<ProjectDatabase> => {
    const r = await row(projectId);
    const id = await identity(projectId);
    const sizeBytes = await server.size(id);
    const over = sizeBytes > config.maxBytes;
    const wasReadOnly = limits.get(projectId)?.readOnly ?? r.readOnly;
    limits.set(projectId, { readOnly: over, sizeBytes, checkedAt: Date.now() });
    if (over !== wasReadOnly) {
      await server.setReadOnly(id, over);
      logger.info(over ? "project database over its size limit: now read-only" : "project database back under its size limit", { projectId, sizeBytes });
    }
    await recordAppDatabaseSize(sql, projectId, sizeBytes, over, env);
    return describe({ ...r, readOnly: over, sizeBytes });
  };

  const limitMessage = () =>
    `This project's database is over its size limit (APP_DATABASE_MAX_MB = ${Math.round(config.maxBytes / 1024 / 1024)} MB), so it is read-only: reads work, writes are refused. ` +
    `Free space by dropping or truncating what is no longer needed (inside BEGIN READ WRITE), or ask the operator to raise APP_DATABASE_MAX_MB.`;

  /** What one gateway connection leads to; measures the size when the last measure is stale. */
  const upstream = async (projectId: string): Promise<GatewayUpstream> => {
    await row(projectId);
    const id = await identity(projectId);
    const last = limits.get(projectId);
    if (!last || Date.now() - last.checkedAt > SIZE_CHECK_MS) {
      await enforceLimit(projectId).catch((error) => logger.warn("project database size not measured", { projectId, error: String(error) }));
    }
    const { target, release } = await server.open(id);
    noteActivity(projectId, 1);
    let released = false;
    const done = () => {
      if (released) return;
      released = true;
      noteActivity(projectId, -1);
      release();
    };
    return { identity: id, checkPassword: true, target, release: done, readOnlyMessage: () => (limits.get(projectId)?.readOnly ? limitMessage() : null) };
  };

  const openGateway = async (projectId: string, path: string, owner?: { uid: number; gid: number }) => {
    const cancel = server.cancel && (() => server.cancel!(projectId));
    const gateway = await startGateway({ path, owner, connect: () => upstream(projectId), cancel, logger });
    gateways.add(gateway);
    return { ...gateway, close: async () => (gateways.delete(gateway), gateway.close()) };
  };

  const hostGateway = (projectId: string) => {
    let gateway = hostGateways.get(projectId);
    if (!gateway) {
      const dir = join(socketDir, projectId.replace(/-/g, ""));
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      gateway = openGateway(projectId, join(dir, ".s.PGSQL.5432"));
      hostGateways.set(projectId, gateway);
      gateway.catch(() => hostGateways.delete(projectId));
    }
    return gateway;
  };

  // Databases in use are measured every SIZE_CHECK_MS, so a growing one turns read-only without a reconnect.
  const sweep = setInterval(() => {
    for (const [path, gateway] of sandboxGateways) {
      if (existsSync(dirname(path))) continue;
      sandboxGateways.delete(path);
      void gateway.then((g) => g.close()).catch(() => {});
    }
    for (const [projectId, known] of limits) {
      if (Date.now() - known.checkedAt < SIZE_CHECK_MS) continue;
      enforceLimit(projectId).catch((error) => logger.debug("project database size check failed", { projectId, error: String(error) }));
    }
  }, SIZE_CHECK_MS);
  sweep.unref?.();

  return {
    kind: server.kind,
    environment: env,
    exists: async (projectId) => Boolean(await findAppDatabase(sql, projectId, env)),
    maxBytes: config.maxBytes,
    versionMaxBytes: config.versionMaxBytes,
    warm: async () => server.warm?.(),
    ensure: async (projectId) => describe(await row(projectId)),
    async prepare(projectId) {
      await row(projectId);
      (await server.open(await identity(projectId))).release();
    },
    async client(projectId, options = {}) {
      await row(projectId);
      const gateway = await hostGateway(projectId);
      return roleClient({ path: gateway.path }, await identity(projectId), options.max ?? 1);
    },
    async size(projectId) {
      return (await enforceLimit(projectId)).sizeBytes ?? 0;
    },
    async drop(projectId) {
      const found = await findAppDatabase(sql, projectId, env);
      const gateway = hostGateways.get(projectId);
      hostGateways.delete(projectId);
      if (gateway) await (await gateway.catch(() => null))?.close();
      limits.delete(projectId);
      made.delete(projectId);
      // A new database made later must not read as unchanged since a dump of this one.
      activity.set(projectId, { open: 0, events: (activity.get(projectId)?.events ?? 0) + 1 });
      if (!found) return;
      await server.drop({ projectId, name: found.name, role: found.role });
      await deleteAppDatabase(sql, projectId, env);
    },
    enforceLimit,
    openGateway,
    async serveSandbox(projectId, socket) {
      let gateway = sandboxGateways.get(socket.path);
      if (!gateway) {
        gateway = openGateway(projectId, socket.path, { uid: socket.uid, gid: socket.gid });
        sandboxGateways.set(socket.path, gateway);
        gateway.catch(() => sandboxGateways.delete(socket.path));
      }
      await gateway;
    },
    spareReady: async () => (await server.spareReady?.()) ?? false,
    changeMark(projectId) {
      // Only an embedded database is reached through this process alone.
      if (server.kind !== "embedded") return null;
      const a = activity.get(projectId) ?? { open: 0, events: 0 };
      return a.open > 0 ? null : a.events;
    },
    async directClient(projectId) {
      await row(projectId);
      const { target, release } = await server.open(await identity(projectId));
      return { sql: roleClient(target, await identity(projectId), 1), release };
    },
    async sandboxUrl(projectId, via) {
      const id = await identity(projectId);
      const address = via === "local" ? { host: "127.0.0.1", port: 5432 } : server.publicAddress();
      if (!address) throw noRemoteAddress();
      return `postgres://${id.role}:${id.password}@${address.host}:${address.port}/${id.name}`;
    },
    async close() {
      clearInterval(sweep);
      sandboxGateways.clear();
      for (const gateway of [...gateways]) await gateway.close().catch(() => {});
      await server.close();
      rmSync(socketDir, { recursive: true, force: true });
    },
  };
}

/** E2B sandboxes run elsewhere: they need a database server they can reach over the network. */
function noRemoteAddress(): AppError {
  return new AppError(
    503,
    "dependency_unavailable",
    "This project's sandbox runs on E2B, which cannot reach a database on this machine. Set APP_DATABASES_URL to a PostgreSQL server the sandboxes can reach over the network (an admin connection allowed to create databases and roles), then restart.",
  );
}
