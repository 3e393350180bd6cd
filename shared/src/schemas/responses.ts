/**
 * What each API answer looks like, as zod schemas the web parses every response with. Written with
 * `zod/mini`, the smaller build of zod: the web loads this module only when it first parses an answer, never
 * on the landing page (`GET /api/config` is checked by hand in ./config.ts for the same reason). Each answer's
 * type is inferred from its schema here (`z.infer`), never declared a second time; the domain modules
 * (./project.ts, ./versions.ts, …) re-export those types.
 *
 * @example
 * const projects = projectListSchema.parse(await res.json()); // Project[]
 */
import * as z from "zod/mini";
// The database view's answers are typed from their full zod schemas (./database.ts); these zod/mini copies
// for the browser are held to those types by their annotations.
import type { DatabaseInfo, QueryResult, TableRows } from "./database";

export const projectSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.nullable(z.string()),
  sandboxId: z.nullable(z.string()),
  sandboxUrl: z.nullable(z.string()),
  workflowCommand: z.nullable(z.string()),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** The caller's place in the project: only `GET /api/projects/{id}` says it (a viewer's screens are read-only). */
  role: z.optional(z.enum(["owner", "editor", "viewer"])),
});
export type Project = z.infer<typeof projectSchema>;
export const projectListSchema = z.array(projectSchema);

/** A person in a project (`GET /api/projects/{id}/members`): the owner first, then members, `invited` until they sign in. */
export const memberSchema = z.object({
  email: z.string(),
  role: z.enum(["owner", "editor", "viewer"]),
  status: z.enum(["active", "invited"]),
  name: z.optional(z.string()),
});
export type Member = z.infer<typeof memberSchema>;
export const memberListSchema = z.array(memberSchema);

/** A project someone else owns that the caller is a member of (the project list's "Shared with me"). */
export const sharedProjectSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.nullable(z.string()),
  updatedAt: z.string(),
  role: z.enum(["editor", "viewer"]),
  ownerName: z.string(),
});
export type SharedProject = z.infer<typeof sharedProjectSchema>;
export const sharedProjectListSchema = z.array(sharedProjectSchema);

/** A line of `GET /api/projects/{id}/activity`: what happened (`kind`, with its detail), when and by whom. */
export const activityEntrySchema = z.object({
  id: z.string(),
  kind: z.string(),
  detail: z.record(z.string(), z.unknown()),
  at: z.string(),
  actor: z.nullable(z.object({ name: z.nullable(z.string()), email: z.nullable(z.string()) })),
});
export type ActivityEntry = z.infer<typeof activityEntrySchema>;
export const activityListSchema = z.array(activityEntrySchema);
/** A preview share link as listed (`GET /api/projects/{id}/share-links`): never its token. */
export const shareLinkSchema = z.object({
  id: z.string(),
  createdAt: z.string(),
  expiresAt: z.nullable(z.string()),
  /** The name of who made it, when known. */
  createdBy: z.nullable(z.string()),
});
export type ShareLink = z.infer<typeof shareLinkSchema>;
export const shareLinkListSchema = z.array(shareLinkSchema);
/** A link just made: the only answer that carries its URL. */
export const createdShareLinkSchema = z.object({ id: z.string(), url: z.string(), expiresAt: z.nullable(z.string()) });
export type CreatedShareLink = z.infer<typeof createdShareLinkSchema>;
/**
 * Where to load a preview so its host lets the browser in (`POST /api/sandbox/{projectId}/preview-ticket`):
 * `enterUrl` spends a one-minute ticket and sets the host's cookie (add `&next=<path>`); both null when the
 * preview is not behind this server's proxy (E2B's own hosts).
 */
export const previewTicketSchema = z.object({ origin: z.nullable(z.string()), enterUrl: z.nullable(z.string()) });
export type PreviewTicket = z.infer<typeof previewTicketSchema>;

const stepStatusSchema = z.enum(["in_progress", "completed"]);
/** See `toolDetailSchema` (events/stream.ts): what a tool badge opens to. */
const toolDetailSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("diff"), path: z.string(), edits: z.array(z.object({ removed: z.string(), added: z.string() })) }),
  z.object({ kind: z.literal("file"), path: z.string() }),
  z.object({ kind: z.literal("command"), command: z.string(), output: z.string() }),
]);
export const toolCallSchema = z.object({
  name: z.string(),
  summary: z.string(),
  status: stepStatusSchema,
  result: z.optional(z.string()),
  detail: z.optional(toolDetailSchema),
});
export type ToolCall = z.infer<typeof toolCallSchema>;
export const actionStepSchema = z.object({ description: z.string(), status: stepStatusSchema });
export type ActionStep = z.infer<typeof actionStepSchema>;
/** How the agent run that wrote an assistant message ended ('running' while it works). */
export const messageStatusSchema = z.enum(["running", "complete", "stopped", "failed"]);
export type MessageStatus = z.infer<typeof messageStatusSchema>;
/** See `tokenUsageSchema` (events/stream.ts): reported or estimated tokens, the model, and the cost when priced. */
export const messageUsageSchema = z.object({
  promptTokens: z.number(),
  completionTokens: z.number(),
  totalTokens: z.number(),
  estimated: z.optional(z.boolean()),
  model: z.optional(z.string()),
  cost: z.optional(z.nullable(z.number())),
});
export type MessageUsage = z.infer<typeof messageUsageSchema>;

export const messageSchema = z.object({
  id: z.string(),
  projectId: z.string(),
  role: z.enum(["user", "assistant"]),
  content: z.string(),
  thinking: z.nullable(z.string()),
  attachments: z.array(z.string()),
  toolCalls: z.array(toolCallSchema),
  actions: z.array(actionStepSchema),
  createdAt: z.string(),
  status: z.optional(messageStatusSchema),
  /** Tokens the model reported for the run that wrote this message (null when it reported none). */
  usage: z.optional(z.nullable(messageUsageSchema)),
});
export type Message = z.infer<typeof messageSchema>;
export const messageListSchema = z.array(messageSchema);

/** POST /api/messages/{projectId}/stop: false when there was no run to stop yet. */
export const stopRunSchema = z.object({ stopped: z.boolean() });

/** POST /api/upload/image. */
export const uploadedImageSchema = z.object({ url: z.string() });

const projectFileShape = {
  id: z.string(),
  projectId: z.string(),
  path: z.string(),
  size: z.number(),
  updatedAt: z.string(),
};
export const projectFileSchema = z.object(projectFileShape);
export type ProjectFile = z.infer<typeof projectFileSchema>;
export const projectFileListSchema = z.array(projectFileSchema);
export const fileContentSchema = z.object({
  ...projectFileShape,
  content: z.string(),
  binary: z.boolean(),
});
export type FileContent = z.infer<typeof fileContentSchema>;

/** The download map; files listed in `binary` arrive base64-encoded. */
export const downloadSchema = z.object({
  projectName: z.string(),
  filesCount: z.number(),
  files: z.record(z.string(), z.string()),
  binary: z.optional(z.array(z.string())),
});
export type DownloadResponse = z.infer<typeof downloadSchema>;

export const sandboxUrlSchema = z.object({ url: z.nullable(z.string()) });
export type SandboxUrl = z.infer<typeof sandboxUrlSchema>;
export const sandboxValidationSchema = z.object({ isValid: z.boolean() });
export type SandboxValidation = z.infer<typeof sandboxValidationSchema>;
export const recreateResultSchema = z.object({
  url: z.string(),
  filesSynced: z.number(),
  workflowCommand: z.nullable(z.string()),
});
export type RecreateResult = z.infer<typeof recreateResultSchema>;
/** POST /api/sandbox/{projectId}/run-workflow. */
export const runWorkflowSchema = z.object({
  ok: z.boolean(),
  workflowCommand: z.string(),
});
export const shellResultSchema = z.object({
  stdout: z.string(),
  stderr: z.string(),
  error: z.nullable(z.string()),
});
export type ShellResult = z.infer<typeof shellResultSchema>;

/** GET/PUT /api/projects/{id}/model: the project's model and every model the server offers (MODELS; the first is the default). */
export const projectModelSchema = z.object({ model: z.string(), models: z.array(z.string()) });
export type ProjectModel = z.infer<typeof projectModelSchema>;
/**
 * GET /api/projects/{id}/context: how full the model's window is: the tokens the next request would send for
 * the conversation as it is (system prompt, tools, history), against the window.
 */
export const contextUsageSchema = z.object({
  model: z.string(),
  usedTokens: z.number(),
  contextTokens: z.number(),
});
export type ContextUsage = z.infer<typeof contextUsageSchema>;
/**
 * GET /api/usage: the caller's tokens this calendar month (UTC, `YYYY-MM`) against USER_MONTHLY_TOKENS
 * (`limitTokens`, 0 = no budget); `resetsAt` is the first instant of the next month.
 */
export const tokenBudgetSchema = z.object({
  month: z.string(),
  usedTokens: z.number(),
  limitTokens: z.number(),
  resetsAt: z.string(),
});
export type TokenBudget = z.infer<typeof tokenBudgetSchema>;

export const deploymentStatusSchema = z.enum(["building", "live", "failed", "superseded"]);
export type DeploymentStatus = z.infer<typeof deploymentStatusSchema>;
/** One thing the pre-publish scan found: a project secret's value or a credential, in a file browsers get. */
export const scanFindingSchema = z.object({
  file: z.string(),
  /** `project-secret` (a value of the project's secrets, named in `message`) or a secretlint rule id. */
  rule: z.string(),
  line: z.number(),
  message: z.string(),
});
export type ScanFinding = z.infer<typeof scanFindingSchema>;
export const deploymentSchema = z.object({
  id: z.string(),
  createdAt: z.string(),
  status: deploymentStatusSchema,
  url: z.string(),
  versionId: z.nullable(z.string()),
  bytes: z.number(),
  buildLog: z.optional(z.string()),
  /** What the scan of the files that reach browsers found: why a failed build was refused, or what went live allowed. */
  findings: z.optional(z.array(scanFindingSchema)),
  /** Published with `allowFindings`: these findings went live on purpose. */
  findingsAllowed: z.optional(z.boolean()),
});
export type Deployment = z.infer<typeof deploymentSchema>;
export const deploymentListSchema = z.array(deploymentSchema);
/** GET /api/projects/{id}/deployments/{deploymentId}/logs: the last 1,000 lines. */
export const deploymentLogsSchema = z.object({ lines: z.array(z.string()) });
export const publishResultSchema = z.object({ deploymentId: z.string(), url: z.string(), status: deploymentStatusSchema });
export type PublishResult = z.infer<typeof publishResultSchema>;
/** The project's site as the Publish dialog shows it. */
export const siteStateSchema = z.object({
  slug: z.nullable(z.string()),
  /** The slug the dialog proposes when the project has none yet (made from the project name). */
  suggestedSlug: z.string(),
  url: z.nullable(z.string()),
  liveDeploymentId: z.nullable(z.string()),
  /** The project's files differ from those the live deployment was built from. */
  unpublishedChanges: z.boolean(),
});
export type SiteState = z.infer<typeof siteStateSchema>;
/** One live site of the caller's (the project cards' "Live" badge). */
export const liveSiteSchema = z.object({ projectId: z.string(), slug: z.string(), url: z.string() });
export type LiveSite = z.infer<typeof liveSiteSchema>;
export const liveSiteListSchema = z.array(liveSiteSchema);
/** A domain of the project's own (`/api/projects/{id}/domains`): pending until its TXT record is found, then verified. */
export const siteDomainSchema = z.object({
  domain: z.string(),
  status: z.enum(["pending", "verified"]),
  /** The TXT record to create: `_appbuilder.<domain>` holding `txtValue`. */
  txtName: z.string(),
  txtValue: z.string(),
  verifiedAt: z.nullable(z.string()),
  /** Where the site answers once verified (`https://<domain>` behind Caddy). */
  url: z.string(),
});
export type SiteDomain = z.infer<typeof siteDomainSchema>;
export const siteDomainListSchema = z.array(siteDomainSchema);

export const versionSourceSchema = z.enum(["agent", "user", "restore", "manual"]);
export type VersionSource = z.infer<typeof versionSourceSchema>;
/** One row of the History list. `bytes` is the size of the files this version added or changed. */
export const versionSummarySchema = z.object({
  id: z.string(),
  createdAt: z.string(),
  label: z.string(),
  source: versionSourceSchema,
  messageId: z.optional(z.string()),
  /** Files added, removed or changed against the version before it. */
  filesChanged: z.number(),
  bytes: z.number(),
  /**
   * The project's database in this version: "none" (no tables), "included" (restoring puts it back), or
   * "too_large" (over APP_DATABASE_VERSION_MAX_MB: data not included).
   */
  data: z.enum(["none", "included", "too_large"]),
  /** The data differs from the version before (History marks it). */
  dataChanged: z.boolean(),
});
export type VersionSummary = z.infer<typeof versionSummarySchema>;
export const versionListSchema = z.array(versionSummarySchema);

const diffEntrySchema = z.object({ path: z.string(), sha256: z.string(), size: z.number() });
export const changedEntrySchema = z.object({ path: z.string(), size: z.number(), fromSha256: z.string(), toSha256: z.string(), fromSize: z.number() });
export type ChangedEntry = z.infer<typeof changedEntrySchema>;
export const renamedEntrySchema = z.object({ from: z.string(), to: z.string(), sha256: z.string(), size: z.number() });
export type RenamedEntry = z.infer<typeof renamedEntrySchema>;
/** GET /api/projects/{id}/versions/{a}/diff/{b}: from version `from` to version `to` ("current" names the project's files as they are now). */
export const versionDiffSchema = z.object({
  from: z.string(),
  to: z.string(),
  added: z.array(diffEntrySchema),
  removed: z.array(diffEntrySchema),
  changed: z.array(changedEntrySchema),
  /** A path removed and another added with the same content. Those paths are not also in added/removed. */
  renamed: z.array(renamedEntrySchema),
  /** With `?patch=1`: a unified diff per text file added, removed or changed (binary files are left out). */
  patches: z.optional(z.array(z.object({ path: z.string(), patch: z.string() }))),
});
export type VersionDiff = z.infer<typeof versionDiffSchema>;
/** POST /api/projects/{id}/versions/{versionId}/restore: the version the project now matches and what was done to get there. */
export const restoreResultSchema = z.object({
  version: versionSummarySchema,
  written: z.number(),
  deleted: z.number(),
  /** What happened to the project's database: put back as the version had it, already so, or left alone (not included). */
  data: z.enum(["restored", "unchanged", "not_included"]),
});
export type RestoreResult = z.infer<typeof restoreResultSchema>;

export const problemSourceSchema = z.enum(["browser", "server", "build"]);
export type ProblemSource = z.infer<typeof problemSourceSchema>;
export const problemSchema = z.object({
  id: z.string(),
  source: problemSourceSchema,
  message: z.string(),
  /** Project-relative path, when the problem points at a file. */
  file: z.nullable(z.string()),
  line: z.nullable(z.number()),
  /** ISO 8601. */
  firstSeen: z.string(),
  /** How many times it was seen since it first appeared. */
  count: z.number(),
  /** The stack or code frame, when there is one (quoted to the AI by "Fix with AI"). */
  detail: z.nullable(z.string()),
  /** Last seen by the agent's check, which ran the page in the server's headless browser, not by an open preview. */
  foundByCheck: z.boolean(),
});
export type Problem = z.infer<typeof problemSchema>;
export const problemListSchema = z.array(problemSchema);

export const processStatusSchema = z.enum(["starting", "running", "exited", "crashed"]);
export type ProcessStatus = z.infer<typeof processStatusSchema>;
/** One named process of a sandbox (GET /api/sandbox/{projectId}/processes lists them). */
export const processInfoSchema = z.object({
  name: z.string(),
  command: z.string(),
  status: processStatusSchema,
  /** The last exit code (null while it runs, or when it was ended by a signal it did not report). */
  exitCode: z.nullable(z.number()),
  /** TCP ports its process tree listens on, in the order they were first seen. */
  ports: z.array(z.number()),
  /** ISO time of the current (or last) start; null before it ever started. */
  startedAt: z.nullable(z.string()),
  /** Times it was started again (after a crash or on request) since it was last replaced. */
  restarts: z.number(),
});
export type ProcessInfo = z.infer<typeof processInfoSchema>;
export const processListSchema = z.array(processInfoSchema);
export const processLogLineSchema = z.object({ t: z.string(), stream: z.enum(["stdout", "stderr"]), text: z.string() });
export type ProcessLogLine = z.infer<typeof processLogLineSchema>;
/** GET /api/sandbox/{projectId}/processes/{name}/logs. */
export const processLogsSchema = z.object({
  lines: z.array(processLogLineSchema),
  cursor: z.number(),
});
export type ProcessLogs = z.infer<typeof processLogsSchema>;
/** GET /api/projects/{id}/database (types and limits: ./database.ts). */
export const databaseInfoSchema: z.ZodMiniType<DatabaseInfo> = z.object({
  status: z.enum(["ready", "read_only", "unavailable", "not_created"]),
  sizeBytes: z.number(),
  tables: z.array(
    z.object({
      name: z.string(),
      columns: z.array(z.object({ name: z.string(), type: z.string(), nullable: z.boolean() })),
      rowEstimate: z.number(),
    }),
  ),
});
const resultColumnsSchema = z.array(z.object({ name: z.string(), type: z.string() }));
/** GET /api/projects/{id}/database/tables/{table}/rows. */
export const tableRowsSchema: z.ZodMiniType<TableRows> = z.object({
  columns: resultColumnsSchema,
  rows: z.array(z.array(z.json())),
  total: z.number(),
});
/** POST /api/projects/{id}/database/query. */
export const queryResultSchema: z.ZodMiniType<QueryResult> = z.object({
  columns: resultColumnsSchema,
  rows: z.array(z.array(z.json())),
  rowCount: z.number(),
  truncated: z.boolean(),
  ms: z.number(),
});

/** A project's secrets: names and times, never values. */
export const secretInfoSchema = z.object({ name: z.string(), updatedAt: z.string() });
export type SecretInfo = z.infer<typeof secretInfoSchema>;
export const secretListSchema = z.array(secretInfoSchema);

/** A project's git remote (`GET /api/projects/{id}/git`, null when not connected): never the token. */
export const gitCommitInfoSchema = z.object({ oid: z.string(), message: z.string(), author: z.string(), date: z.string() });
export type GitCommitInfo = z.infer<typeof gitCommitInfoSchema>;
export const gitStatusSchema = z.object({
  url: z.string(),
  branch: z.string(),
  username: z.nullable(z.string()),
  hasToken: z.boolean(),
  autoPush: z.boolean(),
  lastPushedCommit: z.nullable(z.string()),
  lastPulledCommit: z.nullable(z.string()),
  /** Files changed here since the last sync. */
  ahead: z.number(),
  /** Commits on the remote since the last sync (counted up to 50). */
  behind: z.number(),
  status: z.enum(["up_to_date", "ahead", "behind", "diverged", "unreachable"]),
  error: z.optional(z.string()),
  commits: z.array(gitCommitInfoSchema),
});
export type GitStatus = z.infer<typeof gitStatusSchema>;
export const gitStatusOrNullSchema = z.nullable(gitStatusSchema);
export const gitPushResultSchema = z.object({ pushed: z.boolean(), commit: z.nullable(z.string()), files: z.number() });
export type GitPushResult = z.infer<typeof gitPushResultSchema>;
const skippedGitFileSchema = z.object({ path: z.string(), reason: z.string() });
export type SkippedGitFile = z.infer<typeof skippedGitFileSchema>;
export const gitPullResultSchema = z.object({
  upToDate: z.boolean(),
  commit: z.string(),
  versionId: z.optional(z.string()),
  written: z.number(),
  deleted: z.number(),
  merged: z.array(z.string()),
  skipped: z.array(skippedGitFileSchema),
  lfsPointers: z.array(z.string()),
});
export type GitPullResult = z.infer<typeof gitPullResultSchema>;
/** A project made from a git repository: the project, and what the import left out. */
export const gitImportedProjectSchema = z.extend(projectSchema, {
  git: z.object({ commit: z.string(), skipped: z.array(skippedGitFileSchema), lfsPointers: z.array(z.string()) }),
});

/** The caller as the API sees them (`GET /api/me`): `admin` when ADMIN_EMAILS names their verified e-mail. */
export const meSchema = z.object({ id: z.string(), email: z.nullable(z.string()), admin: z.boolean() });
export type Me = z.infer<typeof meSchema>;

/** A user on the admin page (`GET /api/admin/users`): their projects, this UTC month's tokens, last sign-in. */
export const adminUserSchema = z.object({
  id: z.string(),
  email: z.nullable(z.string()),
  name: z.nullable(z.string()),
  createdAt: z.string(),
  lastSignInAt: z.nullable(z.string()),
  disabledAt: z.nullable(z.string()),
  tokensThisMonth: z.number(),
  projects: z.array(z.object({ id: z.string(), name: z.string() })),
});
export type AdminUser = z.infer<typeof adminUserSchema>;
export const adminUserListSchema = z.array(adminUserSchema);

const runningBase = {
  projectId: z.string(),
  projectName: z.string(),
  ownerId: z.string(),
  ownerEmail: z.nullable(z.string()),
  /** The instance holding it (`<hostname>-<pid>`, as GET /api/health names it); null when none was recorded. */
  instance: z.nullable(z.string()),
};

/** What runs on every instance (`GET /api/admin/running`); `instance` is the one that answered. */
export const adminRunningSchema = z.object({
  instance: z.string(),
  sandboxes: z.array(z.object({ ...runningBase, sandboxId: z.string(), usedAt: z.nullable(z.string()) })),
  answers: z.array(z.object({ ...runningBase, messageId: z.string(), startedAt: z.string(), updatedAt: z.string() })),
});
export type AdminRunning = z.infer<typeof adminRunningSchema>;

/** A live published site (`GET /api/admin/sites`). */
export const adminSiteSchema = z.object({
  projectId: z.string(),
  projectName: z.string(),
  ownerEmail: z.nullable(z.string()),
  slug: z.string(),
  url: z.string(),
  publishedAt: z.nullable(z.string()),
});
export type AdminSite = z.infer<typeof adminSiteSchema>;
export const adminSiteListSchema = z.array(adminSiteSchema);
