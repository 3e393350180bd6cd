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
import type { CreateProject } from "@shared/schemas/project";
import {
  downloadSchema,
  fileContentSchema,
  ignoredSchema,
  messageListSchema,
  projectFileListSchema,
  projectFileSchema,
  projectListSchema,
  projectSchema,
  publicConfigSchema,
  recreateResultSchema,
  runWorkflowSchema,
  sandboxUrlSchema,
  sandboxValidationSchema,
  shellResultSchema,
  stopRunSchema,
  uploadedImageSchema,
} from "@shared/schemas/responses";
import type { SyncUser } from "@shared/schemas/user";
import { type ApiInit, apiRequest } from "./client";
import { openSse } from "./sse";

/** The part of a zod schema this module needs (both classic and mini schemas have it). */
type Schema<T> = { parse(value: unknown): T };

/** `/api/` followed by each segment, encoded: ids can never add or change a path segment. */
export function apiPath(...segments: string[]): string {
  return `/api/${segments.map(encodeURIComponent).join("/")}`;
}

async function call<T>(schema: Schema<T>, path: string, init: ApiInit = {}): Promise<T> {
  const res = await apiRequest(path, init);
  const text = await res.text();
  return schema.parse(text ? JSON.parse(text) : undefined);
}

const get = <T>(schema: Schema<T>, ...segments: string[]) => call(schema, apiPath(...segments));
const send = <T>(method: "POST" | "PATCH" | "DELETE", schema: Schema<T>, segments: string[], body?: unknown, init: ApiInit = {}) =>
  call(schema, apiPath(...segments), { ...init, method, body });

export type StreamMessage = { projectId: string; content: string; attachments?: string[]; enableReasoning: boolean };

export const api = {
  config: () => get(publicConfigSchema, "config"),
  auth: {
    sync: (user: SyncUser, init: Pick<ApiInit, "signal"> = {}) => send("POST", ignoredSchema, ["auth", "sync"], user, init),
  },
  projects: {
    list: () => get(projectListSchema, "projects"),
    get: (id: string) => get(projectSchema, "projects", id),
    create: (input: CreateProject) => send("POST", projectSchema, ["projects"], input),
    remove: (id: string) => send("DELETE", ignoredSchema, ["projects", id]),
  },
  messages: {
    list: (projectId: string) => get(messageListSchema, "messages", projectId),
    stream: (body: StreamMessage, init: Pick<ApiInit, "signal"> = {}) =>
      openSse(apiPath("messages", "stream"), { ...init, method: "POST", body }),
    /** Replays the project's running agent run, or answers 204 when none is going. */
    active: (projectId: string, init: Pick<ApiInit, "signal"> = {}) => openSse(apiPath("messages", projectId, "active"), init),
    stop: (projectId: string) => send("POST", stopRunSchema, ["messages", projectId, "stop"]),
  },
  images: {
    upload: (projectId: string, file: File) => {
      const form = new FormData();
      form.append("file", file);
      form.append("projectId", projectId);
      return send("POST", uploadedImageSchema, ["upload", "image"], form);
    },
  },
  files: {
    list: (projectId: string) => get(projectFileListSchema, "files", projectId),
    content: (projectId: string, fileId: string) => get(fileContentSchema, "files", projectId, fileId),
    save: (fileId: string, content: string) => send("PATCH", projectFileSchema, ["files", fileId, "content"], { content }),
    rename: (fileId: string, newPath: string) => send("PATCH", projectFileSchema, ["files", fileId, "rename"], { newPath }),
    remove: (fileId: string) => send("DELETE", ignoredSchema, ["files", fileId]),
    download: (projectId: string) => get(downloadSchema, "files", projectId, "download"),
    /** The WebSocket that pushes file events (api/file-events.ts). */
    eventsSocketUrl: (loc: Pick<Location, "protocol" | "host"> = location) =>
      `${loc.protocol === "https:" ? "wss:" : "ws:"}//${loc.host}${apiPath("ws")}`,
  },
  sandbox: {
    url: (projectId: string) => get(sandboxUrlSchema, "sandbox", projectId, "url"),
    validate: (projectId: string) => get(sandboxValidationSchema, "sandbox", projectId, "validate"),
    recreate: (projectId: string) => send("POST", recreateResultSchema, ["sandbox", projectId, "recreate"]),
    runWorkflow: (projectId: string) => send("POST", runWorkflowSchema, ["sandbox", projectId, "run-workflow"]),
    shell: (projectId: string, command: string, init: Pick<ApiInit, "signal"> = {}) =>
      send("POST", shellResultSchema, ["sandbox", projectId, "shell"], { command }, init),
  },
};
