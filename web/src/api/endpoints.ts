/**
 * Every call the SPA makes to its API, one function each: the only web module that knows an `/api/` path.
 * Path parameters are encoded here; each JSON answer is parsed with its schema from
 * `@shared/schemas/responses`, so callers get checked data, never a cast. Streams (SSE) come back as the
 * open Response for `api/sse.ts` to read.
 *
 * @example
 * const projects = await api.projects.list();
 * const res = await api.messages.stream({ projectId, content, enableReasoning: false }, { signal });
 */
import { parsePublicConfig } from "@shared/schemas/config";
import type { StartProcess } from "@shared/schemas/processes";
import type { CreateProject } from "@shared/schemas/project";
import type { SyncUser } from "@shared/schemas/user";
import type { QueryFunctionContext, QueryKey } from "@tanstack/react-query";
import { ApiError } from "./api-error";
import { type ApiInit, apiRequest } from "./client";
import { fileKeys, messageKeys, projectKeys, publishKeys, sandboxKeys, usageKeys, versionKeys } from "./query-keys";
import { openSse } from "./sse";

/** The part of a zod schema this module needs. */
type Schema<T> = { parse(value: unknown): T };
type Schemas = typeof import("@shared/schemas/responses");
/** A schema, or which one of the shared response schemas (loaded on first use, see below). */
type SchemaRef<T> = Schema<T> | ((schemas: Schemas) => Schema<T>);

let responseSchemas: Promise<Schemas> | null = null;
/**
 * The response schemas bring zod, which the landing page's 150 KB script budget has no room for; the
 * landing page only asks for the config (checked by hand), so they load with the first other call.
 */
function loadSchemas(): Promise<Schemas> {
  responseSchemas ??= import("@shared/schemas/responses").catch((err: unknown) => {
    responseSchemas = null;
    throw err;
  });
  return responseSchemas;
}

/** An answer whose body the client does not read (DELETE's `{ ok: true }`, the user sync). */
const ignored: Schema<unknown> = { parse: () => undefined };
const config: Schema<ReturnType<typeof parsePublicConfig>> = { parse: parsePublicConfig };

/** `/api/` followed by each segment, encoded: ids can never add or change a path segment. */
export function apiPath(...segments: string[]): string {
  return `/api/${segments.map(encodeURIComponent).join("/")}`;
}

async function call<T>(ref: SchemaRef<T>, path: string, init: ApiInit = {}): Promise<T> {
  const [res, schema] = await Promise.all([
    apiRequest(path, init),
    typeof ref === "function" ? loadSchemas().then(ref) : ref,
  ]);
  const text = await res.text();
  return schema.parse(text ? JSON.parse(text) : undefined);
}

const get = <T>(schema: SchemaRef<T>, ...segments: string[]) => call(schema, apiPath(...segments));
const send = <T>(method: "POST" | "PUT" | "PATCH" | "DELETE", schema: SchemaRef<T>, segments: string[], body?: unknown, init: ApiInit = {}) =>
  call(schema, apiPath(...segments), { ...init, method, body });

/** What a key-path query carries for the default query function: its answer's schema, and how a 401 reads. */
export type KeyQueryMeta = { schema: (schemas: Schemas) => Schema<unknown>; on401: "throw" | "returnNull" };

/**
 * The default query function: GET on the path the query key spells (`["files", id]` →
 * `/api/files/{id}`), the answer parsed with the schema the query names in its meta. With `on401:
 * "returnNull"` a 401 answers null (no session) instead of throwing.
 */
export async function fetchQueryKey({ queryKey, meta, signal }: QueryFunctionContext): Promise<unknown> {
  const path = apiPath(...queryKey.map(String));
  const options = meta as Partial<KeyQueryMeta> | undefined;
  if (!options?.schema) throw new Error(`No response schema for the query ${path}`);
  try {
    return await call(options.schema, path, { signal });
  } catch (err) {
    if (options.on401 === "returnNull" && err instanceof ApiError && err.status === 401) return null;
    throw err;
  }
}

/** Query options for a GET on the key's path, typed by the schema that will parse the answer. */
function keyQuery<T, K extends QueryKey>(queryKey: K, schema: (schemas: Schemas) => Schema<T>): { queryKey: K; meta: KeyQueryMeta; queryFn?: () => Promise<T> };
function keyQuery<T, K extends QueryKey>(
  queryKey: K,
  schema: (schemas: Schemas) => Schema<T>,
  on401: "returnNull",
): { queryKey: K; meta: KeyQueryMeta; queryFn?: () => Promise<T | null> };
function keyQuery<T, K extends QueryKey>(queryKey: K, schema: (schemas: Schemas) => Schema<T>, on401: KeyQueryMeta["on401"] = "throw") {
  return { queryKey, meta: { schema, on401 } satisfies KeyQueryMeta };
}

/**
 * The screens' queries, each a GET on its key's path through the default query function. The project list
 * reads a 401 as "no session" (null), which the projects screen turns into a fresh sign-in.
 */
export const queries = {
  projects: () => keyQuery(projectKeys.all, (s) => s.projectListSchema, "returnNull"),
  project: (id: string) => keyQuery(projectKeys.detail(id), (s) => s.projectSchema),
  messages: (projectId: string) => keyQuery(messageKeys.list(projectId), (s) => s.messageListSchema),
  files: (projectId: string) => keyQuery(fileKeys.list(projectId), (s) => s.projectFileListSchema),
  fileContent: (projectId: string, fileId: string) => keyQuery(fileKeys.content(projectId, fileId), (s) => s.fileContentSchema),
  sandboxUrl: (projectId: string) => keyQuery(sandboxKeys.url(projectId), (s) => s.sandboxUrlSchema),
  projectModel: (projectId: string) => keyQuery(projectKeys.model(projectId), (s) => s.projectModelSchema),
  contextUsage: (projectId: string) => keyQuery(projectKeys.context(projectId), (s) => s.contextUsageSchema),
  tokenBudget: () => keyQuery(usageKeys.all, (s) => s.tokenBudgetSchema),
  site: (projectId: string) => keyQuery(publishKeys.site(projectId), (s) => s.siteStateSchema),
  deployments: (projectId: string) => keyQuery(publishKeys.deployments(projectId), (s) => s.deploymentListSchema),
  liveSites: () => keyQuery(publishKeys.liveSites, (s) => s.liveSiteListSchema),
  /** The newest 200 versions (the API's page limit): enough for History and for finding a run's versions. */
  versions: (projectId: string) => ({
    queryKey: versionKeys.list(projectId),
    queryFn: ({ signal }: { signal: AbortSignal }) =>
      call((s) => s.versionListSchema, `${apiPath("projects", projectId, "versions")}?limit=${VERSIONS_PAGE}`, { signal }),
  }),
  versionDiff: (projectId: string, from: string, to: string) => keyQuery(versionKeys.diff(projectId, from, to), (s) => s.versionDiffSchema),
  problems: (projectId: string) => keyQuery(sandboxKeys.problems(projectId), (s) => s.problemListSchema),
  processes: (projectId: string) => keyQuery(sandboxKeys.processes(projectId), (s) => s.processListSchema),
  secrets: (projectId: string) => keyQuery(projectKeys.secrets(projectId), (s) => s.secretListSchema),
};

export const VERSIONS_PAGE = 200;

/** A file at a version ("current": as it is now): its text, or null when its bytes are not text. */
export type VersionFileText = { text: string | null };

export type StreamMessage = { projectId: string; content: string; attachments?: string[]; enableReasoning: boolean };

export const api = {
  config: () => get(config, "config"),
  auth: {
    sync: (user: SyncUser, init: Pick<ApiInit, "signal"> = {}) => send("POST", ignored, ["auth", "sync"], user, init),
  },
  projects: {
    list: () => get((s) => s.projectListSchema, "projects"),
    get: (id: string) => get((s) => s.projectSchema, "projects", id),
    create: (input: CreateProject) => send("POST", (s) => s.projectSchema, ["projects"], input),
    remove: (id: string) => send("DELETE", ignored, ["projects", id]),
    /** A new project from a .zip (named `name`, else after the zip); a refused zip answers 400 or 413 with the reason. */
    import: (file: File, name?: string) => {
      const form = new FormData();
      form.append("file", file);
      if (name?.trim()) form.append("name", name.trim());
      return send("POST", (s) => s.projectSchema, ["projects", "import"], form);
    },
    /** Stores the model the project's runs use; a model the server does not offer answers 400. */
    setModel: (id: string, model: string) => send("PUT", (s) => s.projectModelSchema, ["projects", id, "model"], { model }),
  },
  messages: {
    list: (projectId: string) => get((s) => s.messageListSchema, "messages", projectId),
    stream: (body: StreamMessage, init: Pick<ApiInit, "signal"> = {}) =>
      openSse(apiPath("messages", "stream"), { ...init, method: "POST", body }),
    /** Replays the project's running agent run, or answers 204 when none is going. */
    active: (projectId: string, init: Pick<ApiInit, "signal"> = {}) => openSse(apiPath("messages", projectId, "active"), init),
    stop: (projectId: string) => send("POST", (s) => s.stopRunSchema, ["messages", projectId, "stop"]),
  },
  images: {
    upload: (projectId: string, file: File) => {
      const form = new FormData();
      form.append("file", file);
      form.append("projectId", projectId);
      return send("POST", (s) => s.uploadedImageSchema, ["upload", "image"], form);
    },
  },
  files: {
    list: (projectId: string) => get((s) => s.projectFileListSchema, "files", projectId),
    content: (projectId: string, fileId: string) => get((s) => s.fileContentSchema, "files", projectId, fileId),
    save: (fileId: string, content: string) => send("PATCH", (s) => s.projectFileSchema, ["files", fileId, "content"], { content }),
    rename: (fileId: string, newPath: string) => send("PATCH", (s) => s.projectFileSchema, ["files", fileId, "rename"], { newPath }),
    remove: (fileId: string) => send("DELETE", ignored, ["files", fileId]),
    download: (projectId: string) => get((s) => s.downloadSchema, "files", projectId, "download"),
    /** The project as a ZIP the server streams (for projects too large to zip in the browser). */
    downloadZip: async (projectId: string): Promise<Blob> => {
      const res = await apiRequest(apiPath("files", projectId, "download.zip"), { headers: { Accept: "application/zip" } });
      return res.blob();
    },
    /** The WebSocket that pushes file events (api/file-events.ts). */
    eventsSocketUrl: (loc: Pick<Location, "protocol" | "host"> = location) =>
      `${loc.protocol === "https:" ? "wss:" : "ws:"}//${loc.host}${apiPath("ws")}`,
  },
  publish: {
    start: (projectId: string, slug?: string) => send("POST", (s) => s.publishResultSchema, ["projects", projectId, "publish"], slug ? { slug } : {}),
    unpublish: (projectId: string) => send("DELETE", ignored, ["projects", projectId, "publish"]),
    activate: (projectId: string, deploymentId: string) =>
      send("POST", (s) => s.deploymentSchema, ["projects", projectId, "deployments", deploymentId, "activate"]),
    },
  versions: {
    /** The file's bytes answer with text/plain when they are UTF-8 text, application/octet-stream otherwise. */
    fileText: async (projectId: string, versionId: string, path: string, init: Pick<ApiInit, "signal"> = {}): Promise<VersionFileText> => {
      const res = await apiRequest(apiPath("projects", projectId, "versions", versionId, "files", ...path.split("/")), {
        ...init,
        headers: { Accept: "*/*" },
      });
      if (!(res.headers.get("content-type") ?? "").startsWith("text/")) return { text: null };
      return { text: await res.text() };
    },
    /** The version that holds the files as they were before this chat message's agent run. */
    beforeMessage: (projectId: string, messageId: string) =>
      get((s) => s.versionSummarySchema, "projects", projectId, "versions", "before-message", messageId),
    create: (projectId: string, label: string) => send("POST", (s) => s.versionSummarySchema, ["projects", projectId, "versions"], { label }),
    restore: (projectId: string, versionId: string) =>
      send("POST", (s) => s.restoreResultSchema, ["projects", projectId, "versions", versionId, "restore"]),
  },
  sandbox: {
    url: (projectId: string) => get((s) => s.sandboxUrlSchema, "sandbox", projectId, "url"),
    validate: (projectId: string) => get((s) => s.sandboxValidationSchema, "sandbox", projectId, "validate"),
    recreate: (projectId: string) => send("POST", (s) => s.recreateResultSchema, ["sandbox", projectId, "recreate"]),
    runWorkflow: (projectId: string) => send("POST", (s) => s.runWorkflowSchema, ["sandbox", projectId, "run-workflow"]),
    shell: (projectId: string, command: string, init: Pick<ApiInit, "signal"> = {}) =>
      send("POST", (s) => s.shellResultSchema, ["sandbox", projectId, "shell"], { command }, init),
    /** The interactive terminal's WebSocket (features/terminal/pty-connection.ts; shared/events/pty-frames.ts). */
    ptySocketUrl: (projectId: string, size: { cols: number; rows: number }, loc: Pick<Location, "protocol" | "host"> = location) =>
      `${loc.protocol === "https:" ? "wss:" : "ws:"}//${loc.host}${apiPath("sandbox", projectId, "pty")}?cols=${size.cols}&rows=${size.rows}`,
    clearProblems: (projectId: string) => send("DELETE", ignored, ["sandbox", projectId, "problems"]),
  },
  /** A project's secrets: values go in, never come out. A bad name or value answers 400 with the reason. */
  secrets: {
    list: (projectId: string) => get((s) => s.secretListSchema, "projects", projectId, "secrets"),
    set: (projectId: string, name: string, value: string) => send("PUT", (s) => s.secretInfoSchema, ["projects", projectId, "secrets", name], { value }),
    remove: (projectId: string, name: string) => send("DELETE", ignored, ["projects", projectId, "secrets", name]),
    /** Answers the agent's request_secret with no: the waiting run goes on without it. */
    decline: (projectId: string, name: string) => send("POST", ignored, ["projects", projectId, "secrets", name, "decline"]),
  },
  /** The sandbox's named processes; live output and status arrive over the WebSocket (api/file-events.ts). */
  processes: {
    list: (projectId: string) => get((s) => s.processListSchema, "sandbox", projectId, "processes"),
    start: (projectId: string, body: StartProcess) => send("POST", (s) => s.processInfoSchema, ["sandbox", projectId, "processes"], body),
    restart: (projectId: string, name: string) => send("POST", (s) => s.processInfoSchema, ["sandbox", projectId, "processes", name, "restart"]),
    stop: (projectId: string, name: string) => send("POST", (s) => s.processInfoSchema, ["sandbox", projectId, "processes", name, "stop"]),
    /** Lines after `since` (a cursor from an earlier answer), or every line still kept. */
    logs: (projectId: string, name: string, since?: number) =>
      call((s) => s.processLogsSchema, `${apiPath("sandbox", projectId, "processes", name, "logs")}${since === undefined ? "" : `?since=${since}`}`),
  },
};
