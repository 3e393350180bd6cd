/** Every TanStack Query key the SPA uses, from this one factory: never hand-built arrays or strings. */
export const projectKeys = {
  all: ["projects"] as const,
  detail: (id: string) => ["projects", id] as const,
};

export const fileKeys = {
  all: ["files"] as const,
  /** Everything cached for one project's files (the list and each content). */
  project: (projectId: string) => ["files", projectId] as const,
  list: (projectId: string) => ["files", projectId, "list"] as const,
  content: (projectId: string, fileId: string) => ["files", projectId, "content", fileId] as const,
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
