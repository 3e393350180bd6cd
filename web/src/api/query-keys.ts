/**
 * Every TanStack Query key the SPA uses, from this one factory: never hand-built arrays or strings. A key
 * spells its API path after `/api/` (spec §7: the default query function GETs that path), except the
 * validity key, whose check has a query function of its own.
 */
export const projectKeys = {
  all: ["projects"] as const,
  detail: (id: string) => ["projects", id] as const,
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
};
