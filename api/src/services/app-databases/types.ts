/**
 * The shapes of project databases: what callers get (`ProjectDatabase`) and the one interface both places they
 * can live implement (`DatabaseServer`: a real PostgreSQL reached with an admin connection, or one embedded
 * PGlite per project).
 */

/** `read_only`: over APP_DATABASE_MAX_MB, so writes fail and reads work. */
export type ProjectDatabaseStatus = "ready" | "read_only";

export type ProjectDatabase = {
  projectId: string;
  kind: "postgres" | "embedded";
  /** The database's name and the role that owns it (what the sandbox's DATABASE_URL names). */
  name: string;
  role: string;
  status: ProjectDatabaseStatus;
  /** Last measured size (null before the first measure) and the limit. */
  sizeBytes: number | null;
  maxBytes: number;
};

/** Who a project database is: its names and the role's password. */
export type DatabaseIdentity = { projectId: string; name: string; role: string; password: string };

/** Where to open a raw connection to a project database from this host (postgres.js `path` or host/port). */
export type UpstreamTarget = { path: string } | { host: string; port: number };

export interface DatabaseServer {
  readonly kind: "postgres" | "embedded";
  /** Creates the database and its role when missing; safe to call again and from two instances at once. */
  create(id: DatabaseIdentity): Promise<void>;
  /** Drops the database and its role (connections are cut first); missing is fine. */
  drop(id: Pick<DatabaseIdentity, "projectId" | "name" | "role">): Promise<void>;
  /** Bytes the database takes on disk. */
  size(id: DatabaseIdentity): Promise<number>;
  /** Makes new transactions read-only (or not again) and ends sessions so the change reaches them. */
  setReadOnly(id: DatabaseIdentity, readOnly: boolean): Promise<void>;
  /**
   * Where raw connections go, starting the database if it has to be (embedded). `release` says the caller's
   * connection is gone (an embedded database with none left stops after the idle time).
   */
  open(id: DatabaseIdentity): Promise<{ target: UpstreamTarget; release(): void }>;
  /**
   * A client's CancelRequest, for servers the gateway cannot pass it to (embedded: one session per project,
   * ended by restarting its thread). Missing: cancel requests are not forwarded.
   */
  cancel?(projectId: string): Promise<void>;
  /** The server as a sandbox outside this host would reach it (E2B), or null when it cannot. */
  publicAddress(): { host: string; port: number } | null;
  close(): Promise<void>;
}
