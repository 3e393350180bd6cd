/**
 * Every call the SPA makes to its API, one function each: the only web module that knows the API's paths.
 * Calls go through Hono's client typed by the server's own routes (`hc<ApiRoutes>`), so a path, a parameter
 * or a body the server does not accept fails to compile. Path parameters are encoded here; each JSON answer
 * is parsed with its schema from `@shared/schemas/responses`, so callers get checked data, never a cast.
 * Streams (SSE) come back as the open Response for `api/sse.ts` to read. The screens' queries over these
 * calls: api/queries.ts.
 *
 * @example
 * const projects = await api.projects.list();
 * const res = await api.messages.stream({ projectId, content, enableReasoning: false }, { signal });
 */
import { parsePublicConfig } from "@shared/schemas/config";
import type { DatabaseEnvironmentName as DatabaseEnv } from "@shared/schemas/database";
import type { StartProcess } from "@shared/schemas/processes";
import type { ConnectGit, ImportGit, PushGit } from "@shared/schemas/git";
import type { InviteMember, MemberRole } from "@shared/schemas/members";
import type { CreateProject } from "@shared/schemas/project";
import type { SyncUser } from "@shared/schemas/user";
import { type ClientResponse, hc, type InferRequestType } from "hono/client";
import type { ApiRoutes } from "../../../api/src/app";
import { apiFetch } from "./client";

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

/** The API's routes as calls; relative to the page, which the API serves itself. Requests go through apiFetch. */
const client = hc<ApiRoutes>("/api", { fetch: apiFetch });
/** The typed client's type: what endpoints.type-test.ts holds to the routes. */
export type ApiClient = typeof client;

/** What one call may carry besides its inputs: the signal that cancels it. */
export type CallInit = Pick<RequestInit, "signal">;
const SSE = { Accept: "text/event-stream" };

/** `/api/` followed by each segment, encoded: for the WebSockets, which are not routes of the Hono app. */
export function apiPath(...segments: string[]): string {
  return `/api/${segments.map(encodeURIComponent).join("/")}`;
}

/** Path parameters, each encoded: an id can never add or change a path segment. */
function encoded<T extends Record<string, string>>(param: T): T {
  return Object.fromEntries(Object.entries(param).map(([key, value]) => [key, encodeURIComponent(value)])) as T;
}

/**
 * A JSON body for a route that reads (and checks) its body itself after the owner check, so its validator
 * names none for the typed client: the git routes, and the import route's JSON form beside its multipart one.
 */
const jsonInit = (body: unknown) => ({ init: { body: JSON.stringify(body), headers: { "Content-Type": "application/json" } } });

/** The answer's JSON parsed with its schema, which loads while the request is under way. */
async function parsed<T>(ref: SchemaRef<T>, request: Promise<ClientResponse<unknown>>): Promise<T> {
  const [res, schema] = await Promise.all([request, typeof ref === "function" ? loadSchemas().then(ref) : ref]);
  const text = await res.text();
  return schema.parse(text ? JSON.parse(text) : undefined);
}

/** The open Response apiFetch returned (hc hands it back as is), for a stream or a body that is not JSON. */
async function opened(request: Promise<ClientResponse<unknown>>): Promise<Response> {
  const res: unknown = await request;
  if (!(res instanceof Response)) throw new Error("The API client answered something other than a Response");
  return res;
}

export const VERSIONS_PAGE = 200;

/** A file at a version ("current": as it is now): its text, or null when its bytes are not text. */
export type VersionFileText = { text: string | null };

/** The body of POST /api/messages/stream, as the route accepts it. */
export type StreamMessage = InferRequestType<typeof client.messages.stream.$post>["json"];

export const api = {
  config: () => parsed(config, client.config.$get()),
  auth: {
    sync: (user: SyncUser, init: CallInit = {}) => parsed(ignored, client.auth.sync.$post({ json: user }, { init })),
  },
  /** Who the API takes the caller for, and whether ADMIN_EMAILS names them (the Admin link). */
  me: (init: CallInit = {}) => parsed((s) => s.meSchema, client.me.$get({}, { init })),
  /** The admin page (`/api/admin/...`); each answers 404 to anyone who is not an admin. */
  admin: {
    users: (init: CallInit = {}) => parsed((s) => s.adminUserListSchema, client.admin.users.$get({}, { init })),
    running: (init: CallInit = {}) => parsed((s) => s.adminRunningSchema, client.admin.running.$get({}, { init })),
    sites: (init: CallInit = {}) => parsed((s) => s.adminSiteListSchema, client.admin.sites.$get({}, { init })),
    disable: (userId: string) => parsed(ignored, client.admin.users[":userId"].disable.$post({ param: encoded({ userId }) })),
    enable: (userId: string) => parsed(ignored, client.admin.users[":userId"].enable.$post({ param: encoded({ userId }) })),
    stopRun: (projectId: string) => parsed(ignored, client.admin.runs[":projectId"].stop.$post({ param: encoded({ projectId }) })),
    stopSandbox: (projectId: string) => parsed(ignored, client.admin.sandboxes[":projectId"].stop.$post({ param: encoded({ projectId }) })),
  },
  projects: {
    list: (init: CallInit = {}) => parsed((s) => s.projectListSchema, client.projects.$get({}, { init })),
    get: (id: string, init: CallInit = {}) => parsed((s) => s.projectSchema, client.projects[":id"].$get({ param: encoded({ id }) }, { init })),
    create: (input: CreateProject) => parsed((s) => s.projectSchema, client.projects.$post({ json: input })),
    /** Projects others own that the caller is a member of, with the owner's name and the caller's role. */
    shared: (init: CallInit = {}) => parsed((s) => s.sharedProjectListSchema, client.projects.shared.$get({}, { init })),
    remove: (id: string) => parsed(ignored, client.projects[":id"].$delete({ param: encoded({ id }) })),
    /** A new project from a .zip (named `name`, else after the zip); a refused zip answers 400 or 413 with the reason. */
    import: (file: File, name?: string) =>
      parsed((s) => s.projectSchema, client.projects.import.$post({ form: name?.trim() ? { file, name: name.trim() } : { file } })),
    /** The same route with a JSON body: a project from a git repository, connected to it. */
    importGit: (body: ImportGit) => parsed((s) => s.gitImportedProjectSchema, client.projects.import.$post({ form: {} as never }, jsonInit(body))),
    /** The project's model and the choices. */
    model: (id: string, init: CallInit = {}) => parsed((s) => s.projectModelSchema, client.projects[":id"].model.$get({ param: encoded({ id }) }, { init })),
    /** Stores the model the project's runs use; a model the server does not offer answers 400. */
    setModel: (id: string, model: string) =>
      parsed((s) => s.projectModelSchema, client.projects[":id"].model.$put({ param: encoded({ id }), json: { model } })),
    /** How full the model's context window is for the conversation. */
    context: (id: string, init: CallInit = {}) =>
      parsed((s) => s.contextUsageSchema, client.projects[":id"].context.$get({ param: encoded({ id }) }, { init })),
  },
  /** The caller's tokens this month against the monthly budget. */
  usage: (init: CallInit = {}) => parsed((s) => s.tokenBudgetSchema, client.usage.$get({}, { init })),
  messages: {
    list: (projectId: string, init: CallInit = {}) =>
      parsed((s) => s.messageListSchema, client.messages[":projectId"].$get({ param: encoded({ projectId }) }, { init })),
    stream: (body: StreamMessage, init: CallInit = {}) => opened(client.messages.stream.$post({ json: body }, { headers: SSE, init })),
    /** Replays the project's running agent run, or answers 204 when none is going. */
    active: (projectId: string, init: CallInit = {}) =>
      opened(client.messages[":projectId"].active.$get({ param: encoded({ projectId }) }, { headers: SSE, init })),
    stop: (projectId: string) => parsed((s) => s.stopRunSchema, client.messages[":projectId"].stop.$post({ param: encoded({ projectId }) })),
  },
  images: {
    upload: (projectId: string, file: File) => parsed((s) => s.uploadedImageSchema, client.upload.image.$post({ form: { file, projectId } })),
  },
  files: {
    list: (projectId: string, init: CallInit = {}) =>
      parsed((s) => s.projectFileListSchema, client.files[":projectId"].$get({ param: encoded({ projectId }) }, { init })),
    content: (projectId: string, fileId: string, init: CallInit = {}) =>
      parsed((s) => s.fileContentSchema, client.files[":projectId"][":fileId"].$get({ param: encoded({ projectId, fileId }) }, { init })),
    /** Creates the file at `path`, or replaces its content when it exists. */
    write: (projectId: string, path: string, content: string) =>
      parsed((s) => s.projectFileSchema, client.files[":projectId"].$post({ param: encoded({ projectId }), json: { path, content } })),
    save: (fileId: string, content: string) =>
      parsed((s) => s.projectFileSchema, client.files[":fileId"].content.$patch({ param: encoded({ fileId }), json: { content } })),
    rename: (fileId: string, newPath: string) =>
      parsed((s) => s.projectFileSchema, client.files[":fileId"].rename.$patch({ param: encoded({ fileId }), json: { newPath } })),
    remove: (fileId: string) => parsed(ignored, client.files[":fileId"].$delete({ param: encoded({ fileId }) })),
    download: (projectId: string) => parsed((s) => s.downloadSchema, client.files[":projectId"].download.$get({ param: encoded({ projectId }) })),
    /** The project as a ZIP the server streams (for projects too large to zip in the browser). */
    downloadZip: async (projectId: string): Promise<Blob> => {
      const res = await client.files[":projectId"]["download.zip"].$get({ param: encoded({ projectId }) }, { headers: { Accept: "application/zip" } });
      return res.blob();
    },
    /** The WebSocket that pushes file events (api/project-events.ts). */
    eventsSocketUrl: (loc: Pick<Location, "protocol" | "host"> = location) => `${loc.protocol === "https:" ? "wss:" : "ws:"}//${loc.host}${apiPath("ws")}`,
  },
  publish: {
    /** The project's site as the Publish dialog shows it. */
    site: (id: string, init: CallInit = {}) => parsed((s) => s.siteStateSchema, client.projects[":id"].publish.$get({ param: encoded({ id }) }, { init })),
    deployments: (id: string, init: CallInit = {}) =>
      parsed((s) => s.deploymentListSchema, client.projects[":id"].deployments.$get({ param: encoded({ id }) }, { init })),
    /** A deployment's last 1,000 log lines (a server's own output while it runs). */
    logs: (id: string, deploymentId: string, init: CallInit = {}) =>
      parsed((s) => s.deploymentLogsSchema, client.projects[":id"].deployments[":deploymentId"].logs.$get({ param: encoded({ id, deploymentId }) }, { init })),
    /** The caller's live sites (the project cards' "Live" badge). */
    liveSites: (init: CallInit = {}) => parsed((s) => s.liveSiteListSchema, client.sites.$get({}, { init })),
    /** `allowFindings`: go live even with the secret scan's findings (the deployment records them). */
    start: (projectId: string, slug?: string, allowFindings?: boolean) =>
      parsed(
        (s) => s.publishResultSchema,
        client.projects[":id"].publish.$post({
          param: encoded({ id: projectId }),
          json: { ...(slug ? { slug } : {}), ...(allowFindings ? { allowFindings } : {}) },
        }),
      ),
    unpublish: (projectId: string) => parsed(ignored, client.projects[":id"].publish.$delete({ param: encoded({ id: projectId }) })),
    activate: (projectId: string, deploymentId: string) =>
      parsed(
        (s) => s.deploymentSchema,
        client.projects[":id"].deployments[":deploymentId"].activate.$post({ param: encoded({ id: projectId, deploymentId }) }),
      ),
  },
  /** A project's own domains: added pending with a TXT record to create, then verified (409 with the reason until found). */
  domains: {
    list: (projectId: string, init: CallInit = {}) =>
      parsed((s) => s.siteDomainListSchema, client.projects[":id"].domains.$get({ param: encoded({ id: projectId }) }, { init })),
    add: (projectId: string, domain: string) =>
      parsed((s) => s.siteDomainSchema, client.projects[":id"].domains.$post({ param: encoded({ id: projectId }), json: { domain } })),
    verify: (projectId: string, domain: string) =>
      parsed((s) => s.siteDomainSchema, client.projects[":id"].domains[":domain"].verify.$post({ param: encoded({ id: projectId, domain }) })),
    remove: (projectId: string, domain: string) =>
      parsed(ignored, client.projects[":id"].domains[":domain"].$delete({ param: encoded({ id: projectId, domain }) })),
  },
  /** Links that open the project's live preview without signing in (editors and the owner). */
  shareLinks: {
    list: (projectId: string, init: CallInit = {}) =>
      parsed((s) => s.shareLinkListSchema, client.projects[":id"]["share-links"].$get({ param: encoded({ id: projectId }) }, { init })),
    create: (projectId: string, expiresInHours?: number) =>
      parsed(
        (s) => s.createdShareLinkSchema,
        client.projects[":id"]["share-links"].$post({ param: encoded({ id: projectId }), json: expiresInHours ? { expiresInHours } : {} }),
      ),
    revoke: (projectId: string, linkId: string) =>
      parsed(ignored, client.projects[":id"]["share-links"][":linkId"].$delete({ param: encoded({ id: projectId, linkId }) })),
  },
  versions: {
    /** The newest VERSIONS_PAGE versions (the API's page limit): enough for History and for finding a run's versions. */
    list: (projectId: string, init: CallInit = {}) =>
      parsed(
        (s) => s.versionListSchema,
        client.projects[":id"].versions.$get({ param: encoded({ id: projectId }), query: { limit: String(VERSIONS_PAGE) } }, { init }),
      ),
    /** From version `from` to version `to` ("current": the files as they are now). */
    diff: (projectId: string, from: string, to: string, init: CallInit = {}) =>
      parsed((s) => s.versionDiffSchema, client.projects[":id"].versions[":from"].diff[":to"].$get({ param: encoded({ id: projectId, from, to }) }, { init })),
    /** The file's bytes answer with text/plain when they are UTF-8 text, application/octet-stream otherwise. */
    fileText: async (projectId: string, versionId: string, path: string, init: CallInit = {}): Promise<VersionFileText> => {
      // The file's folders stay path segments; each segment is encoded.
      const param = { ...encoded({ id: projectId, versionId }), path: path.split("/").map(encodeURIComponent).join("/") };
      const res = await client.projects[":id"].versions[":versionId"].files[":path{.+}"].$get({ param }, { headers: { Accept: "*/*" }, init });
      if (!(res.headers.get("content-type") ?? "").startsWith("text/")) return { text: null };
      return { text: await res.text() };
    },
    /** The version that holds the files as they were before this chat message's agent run. */
    beforeMessage: (projectId: string, messageId: string) =>
      parsed(
        (s) => s.versionSummarySchema,
        client.projects[":id"].versions["before-message"][":messageId"].$get({ param: encoded({ id: projectId, messageId }) }),
      ),
    create: (projectId: string, label: string) =>
      parsed((s) => s.versionSummarySchema, client.projects[":id"].versions.$post({ param: encoded({ id: projectId }), json: { label } })),
    restore: (projectId: string, versionId: string) =>
      parsed((s) => s.restoreResultSchema, client.projects[":id"].versions[":versionId"].restore.$post({ param: encoded({ id: projectId, versionId }) })),
  },
  sandbox: {
    url: (projectId: string, init: CallInit = {}) =>
      parsed((s) => s.sandboxUrlSchema, client.sandbox[":projectId"].url.$get({ param: encoded({ projectId }) }, { init })),
    validate: (projectId: string) => parsed((s) => s.sandboxValidationSchema, client.sandbox[":projectId"].validate.$get({ param: encoded({ projectId }) })),
    recreate: (projectId: string) => parsed((s) => s.recreateResultSchema, client.sandbox[":projectId"].recreate.$post({ param: encoded({ projectId }) })),
    runWorkflow: (projectId: string) =>
      parsed((s) => s.runWorkflowSchema, client.sandbox[":projectId"]["run-workflow"].$post({ param: encoded({ projectId }) })),
    shell: (projectId: string, command: string, init: CallInit = {}) =>
      parsed((s) => s.shellResultSchema, client.sandbox[":projectId"].shell.$post({ param: encoded({ projectId }), json: { command } }, { init })),
    /** The interactive terminal's WebSocket (features/terminal/pty-connection.ts; shared/events/pty-frames.ts). */
    ptySocketUrl: (projectId: string, size: { cols: number; rows: number }, loc: Pick<Location, "protocol" | "host"> = location) =>
      `${loc.protocol === "https:" ? "wss:" : "ws:"}//${loc.host}${apiPath("sandbox", projectId, "pty")}?cols=${size.cols}&rows=${size.rows}`,
    /** What the running app showed (browser errors, dev server and compile errors). */
    problems: (projectId: string, init: CallInit = {}) =>
      parsed((s) => s.problemListSchema, client.sandbox[":projectId"].problems.$get({ param: encoded({ projectId }) }, { init })),
    clearProblems: (projectId: string) => parsed(ignored, client.sandbox[":projectId"].problems.$delete({ param: encoded({ projectId }) })),
    /** A one-minute ticket onto the project's preview host (the frame loads its enter URL first). */
    previewTicket: (projectId: string, init: CallInit = {}) =>
      parsed((s) => s.previewTicketSchema, client.sandbox[":projectId"]["preview-ticket"].$post({ param: encoded({ projectId }) }, { init })),
  },
  /**
   * The project's databases: development, or production (read-only, from its first server publish); a failed
   * statement answers 400 with PostgreSQL's message and position.
   */
  database: {
    info: (projectId: string, env: DatabaseEnv = "development", init: CallInit = {}) =>
      parsed((s) => s.databaseInfoSchema, client.projects[":id"].database.$get({ param: encoded({ id: projectId }), query: { env } }, { init })),
    rows: (projectId: string, table: string, page: { limit: number; offset: number; order?: string }, env: DatabaseEnv = "development", init: CallInit = {}) =>
      parsed(
        (s) => s.tableRowsSchema,
        client.projects[":id"].database.tables[":table"].rows.$get(
          {
            param: encoded({ id: projectId, table }),
            query: { env, limit: String(page.limit), offset: String(page.offset), ...(page.order ? { order: page.order } : {}) },
          },
          { init },
        ),
      ),
    query: (projectId: string, sql: string, env: DatabaseEnv = "development", init: CallInit = {}) =>
      parsed(
        (s) => s.queryResultSchema,
        client.projects[":id"].database.query.$post({ param: encoded({ id: projectId }), query: { env }, json: { sql } }, { init }),
      ),
  },
  /**
   * A project's people: the owner invites, changes roles, removes and hands the project over; anyone in it
   * reads the list and may leave (remove themselves). A refusal's reason is the ApiError's text.
   */
  members: {
    list: (projectId: string, init: CallInit = {}) =>
      parsed((s) => s.memberListSchema, client.projects[":id"].members.$get({ param: encoded({ id: projectId }) }, { init })),
    invite: (projectId: string, body: InviteMember) =>
      parsed((s) => s.memberSchema, client.projects[":id"].members.$post({ param: encoded({ id: projectId }), json: body })),
    setRole: (projectId: string, email: string, role: MemberRole) =>
      parsed((s) => s.memberSchema, client.projects[":id"].members[":email"].$patch({ param: encoded({ id: projectId, email }), json: { role } })),
    remove: (projectId: string, email: string) =>
      parsed(ignored, client.projects[":id"].members[":email"].$delete({ param: encoded({ id: projectId, email }) })),
    transfer: (projectId: string, email: string) =>
      parsed((s) => s.memberListSchema, client.projects[":id"].transfer.$post({ param: encoded({ id: projectId }), json: { email } })),
    /** Who did what and when, newest first. */
    activity: (projectId: string, init: CallInit = {}) =>
      parsed((s) => s.activityListSchema, client.projects[":id"].activity.$get({ param: encoded({ id: projectId }) }, { init })),
  },
  /** A project's secrets: values go in, never come out. A bad name or value answers 400 with the reason. */
  secrets: {
    list: (projectId: string, init: CallInit = {}) =>
      parsed((s) => s.secretListSchema, client.projects[":id"].secrets.$get({ param: encoded({ id: projectId }) }, { init })),
    set: (projectId: string, name: string, value: string) =>
      parsed((s) => s.secretInfoSchema, client.projects[":id"].secrets[":name"].$put({ param: encoded({ id: projectId, name }), json: { value } })),
    remove: (projectId: string, name: string) => parsed(ignored, client.projects[":id"].secrets[":name"].$delete({ param: encoded({ id: projectId, name }) })),
    /** Answers the agent's request_secret with no: the waiting run goes on without it. */
    decline: (projectId: string, name: string) =>
      parsed(ignored, client.projects[":id"].secrets[":name"].decline.$post({ param: encoded({ id: projectId, name }) })),
  },
  /**
   * A project's git remote. The token goes in and never comes out; the server's reason (refused
   * credentials, "pull first", a conflict's files) comes back as the ApiError's text.
   */
  git: {
    status: (projectId: string, init: CallInit = {}) =>
      parsed((s) => s.gitStatusOrNullSchema, client.projects[":id"].git.$get({ param: encoded({ id: projectId }) }, { init })),
    connect: (projectId: string, body: ConnectGit) =>
      parsed((s) => s.gitStatusSchema, client.projects[":id"].git.$put({ param: encoded({ id: projectId }) }, jsonInit(body))),
    disconnect: (projectId: string) => parsed(ignored, client.projects[":id"].git.$delete({ param: encoded({ id: projectId }) })),
    push: (projectId: string, body: PushGit) =>
      parsed((s) => s.gitPushResultSchema, client.projects[":id"].git.push.$post({ param: encoded({ id: projectId }) }, jsonInit(body))),
    pull: (projectId: string) => parsed((s) => s.gitPullResultSchema, client.projects[":id"].git.pull.$post({ param: encoded({ id: projectId }) })),
  },
  /** The sandbox's named processes; live output and status arrive over the WebSocket (api/project-events.ts). */
  processes: {
    list: (projectId: string, init: CallInit = {}) =>
      parsed((s) => s.processListSchema, client.sandbox[":projectId"].processes.$get({ param: encoded({ projectId }) }, { init })),
    start: (projectId: string, body: StartProcess) =>
      parsed((s) => s.processInfoSchema, client.sandbox[":projectId"].processes.$post({ param: encoded({ projectId }), json: body })),
    restart: (projectId: string, name: string) =>
      parsed((s) => s.processInfoSchema, client.sandbox[":projectId"].processes[":name"].restart.$post({ param: encoded({ projectId, name }) })),
    stop: (projectId: string, name: string) =>
      parsed((s) => s.processInfoSchema, client.sandbox[":projectId"].processes[":name"].stop.$post({ param: encoded({ projectId, name }) })),
    /** Lines after `since` (a cursor from an earlier answer), or every line still kept. */
    logs: (projectId: string, name: string, since?: number) =>
      parsed(
        (s) => s.processLogsSchema,
        client.sandbox[":projectId"].processes[":name"].logs.$get({
          param: encoded({ projectId, name }),
          query: since === undefined ? {} : { since: String(since) },
        }),
      ),
  },
};
