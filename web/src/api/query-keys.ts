/**
 * Every TanStack Query key the SPA uses, from this one factory: never hand-built arrays or strings. A key
 * names its data, and is never read as a URL (each query's function lives in api/queries.ts); keys nest, so
 * invalidating a prefix (`fileKeys.list(id)`, `versionKeys.all(id)`) reaches the queries under it.
 */
export const projectKeys = {
  all: ["projects"] as const,
  /** Projects others share with the caller ("Shared with me"). */
  shared: ["projects", "shared"] as const,
  detail: (id: string) => ["projects", id] as const,
  /** The project's model and the choices. */
  model: (id: string) => ["projects", id, "model"] as const,
  /** How full the model's context window is for the conversation. */
  context: (id: string) => ["projects", id, "context"] as const,
  /** The project's secrets (names and times only). */
  secrets: (id: string) => ["projects", id, "secrets"] as const,
  /** The project's git remote: its status, ahead and behind, the last commits. */
  git: (id: string) => ["projects", id, "git"] as const,
  /** The project's people (owner first, then members). */
  members: (id: string) => ["projects", id, "members"] as const,
  /** Who did what in the project. */
  activity: (id: string) => ["projects", id, "activity"] as const,
  /** The project's live preview share links (never their tokens). */
  shareLinks: (id: string) => ["projects", id, "share-links"] as const,
};

/** Who the caller is (`GET /api/me`), and the admin page's lists. */
export const adminKeys = {
  me: ["me"] as const,
  all: ["admin"] as const,
  users: ["admin", "users"] as const,
  running: ["admin", "running"] as const,
  sites: ["admin", "sites"] as const,
};

/** The caller's tokens this month against the server's monthly budget. */
export const usageKeys = {
  all: ["usage"] as const,
};

export const fileKeys = {
  all: ["files"] as const,
  /** The project's file list; also the prefix of every file content of the project. */
  list: (projectId: string) => ["files", projectId] as const,
  content: (projectId: string, fileId: string) => ["files", projectId, fileId] as const,
};

export const messageKeys = {
  all: ["messages"] as const,
  list: (projectId: string) => ["messages", projectId] as const,
};

/** A project's sandbox: its preview URL and its validity. */
export const sandboxKeys = {
  all: ["sandbox"] as const,
  project: (projectId: string) => ["sandbox", projectId] as const,
  url: (projectId: string) => ["sandbox", projectId, "url"] as const,
  /** Keyed by sandbox too, so a recreated sandbox starts with a fresh check rather than the old answer. */
  validity: (projectId: string, sandboxId: string) => ["sandbox", projectId, "validity", sandboxId] as const,
  /** The sandbox's named processes (its `app` dev server and others). */
  processes: (projectId: string) => ["sandbox", projectId, "processes"] as const,
  /** What the running app showed (browser errors, dev server and compile errors). */
  problems: (projectId: string) => ["sandbox", projectId, "problems"] as const,
};

/** Publishing: a project's site and deployments (under its project key), and the caller's live sites. */
export const publishKeys = {
  site: (projectId: string) => ["projects", projectId, "publish"] as const,
  deployments: (projectId: string) => ["projects", projectId, "deployments"] as const,
  logs: (projectId: string, deploymentId: string) => ["projects", projectId, "deployments", deploymentId, "logs"] as const,
  liveSites: ["sites"] as const,
};

/** A project's own domains. */
export const domainKeys = {
  list: (projectId: string) => ["projects", projectId, "domains"] as const,
};

/** A project's history: its versions, a diff against the current files, a file's text at a version. */
export const versionKeys = {
  /** Every versions query of the project (and the prefix of the ones below). */
  all: (projectId: string) => ["projects", projectId, "versions"] as const,
  list: (projectId: string) => ["projects", projectId, "versions"] as const,
  diff: (projectId: string, from: string, to: string) => ["projects", projectId, "versions", from, "diff", to] as const,
  /** A file's text at a version (its answer is the bytes, not JSON). */
  file: (projectId: string, versionId: string, path: string) => ["projects", projectId, "versions", versionId, "files", path] as const,
};

/** A project's development database: its tables, and a page of one table's rows. */
export const databaseKeys = {
  /** The tables (and the prefix of every rows query of the project). */
  info: (projectId: string) => ["projects", projectId, "database"] as const,
  /** One environment's tables (development or production). */
  env: (projectId: string, env: string) => ["projects", projectId, "database", env] as const,
  /** Its own query function: the page, size and order go in the query string. */
  rows: (projectId: string, table: string, page: { limit: number; offset: number; order?: string }, env = "development") =>
    ["projects", projectId, "database", env, "tables", table, "rows", page] as const,
};
