/** Every TanStack Query key the SPA uses, from one factory each: never hand-built arrays or strings. */
export const projectKeys = {
  all: ["projects"] as const,
  detail: (id: string) => ["projects", id] as const,
};
