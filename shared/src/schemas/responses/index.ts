/**
 * What each API answer looks like, as zod schemas the web parses every response with. Written with
 * `zod/mini`, the smaller build of zod: the web loads this module only when it first parses an answer, never
 * on the landing page (`GET /api/config` is checked by hand in ../config.ts for the same reason). Each answer's
 * type is inferred from its schema here (`z.infer`), never declared a second time; the domain modules
 * (../project.ts, ../versions.ts, …) re-export those types. One file a domain here; this index is what
 * `@shared/schemas/responses` names.
 *
 * @example
 * const projects = projectListSchema.parse(await res.json()); // Project[]
 */
export * from "./projects";
export * from "./team";
export * from "./chat";
export * from "./files";
export * from "./sandbox";
export * from "./publish";
export * from "./versions";
export * from "./database";
export * from "./secrets";
export * from "./git";
export * from "./users";
