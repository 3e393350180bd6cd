/**
 * What each API answer looks like, as zod schemas the web parses every response with. Written with
 * `zod/mini`, the smaller build of zod: the web loads this module only when it first parses an answer, never
 * on the landing page (`GET /api/config` is checked by hand in ./config.ts for the same reason). Each schema
 * is annotated with the domain type it parses to, so a schema and its type cannot drift apart.
 *
 * @example
 * const projects = projectListSchema.parse(await res.json()); // Project[]
 */
import * as z from "zod/mini";
import type { DownloadMap, FileContent, ProjectFile } from "./file";
import type { Message } from "./message";
import type { Problem } from "./problems";
import type { ProcessInfo, ProcessLogs } from "./processes";
import type { Project } from "./project";
import type { ContextUsage, ProjectModel, TokenBudget } from "./model";
import type { Deployment, LiveSite, PublishResult, SiteState } from "./publish";
import type { RecreateResult, SandboxUrl, SandboxValidation, ShellResult } from "./sandbox";
import type { SecretInfo } from "./secrets";
import type { RestoreResult, VersionDiff, VersionSummary } from "./versions";

export const projectSchema: z.ZodMiniType<Project> = z.object({
  id: z.string(),
  name: z.string(),
  description: z.nullable(z.string()),
  sandboxId: z.nullable(z.string()),
  sandboxUrl: z.nullable(z.string()),
  workflowCommand: z.nullable(z.string()),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export const projectListSchema = z.array(projectSchema);

const toolCallSchema = z.object({
  name: z.string(),
  summary: z.string(),
  status: z.enum(["in_progress", "completed"]),
  result: z.optional(z.string()),
});

export const messageSchema: z.ZodMiniType<Message> = z.object({
  id: z.string(),
  projectId: z.string(),
  role: z.enum(["user", "assistant"]),
  content: z.string(),
  thinking: z.nullable(z.string()),
  attachments: z.array(z.string()),
  toolCalls: z.array(toolCallSchema),
  actions: z.array(z.object({ description: z.string(), status: z.enum(["in_progress", "completed"]) })),
  createdAt: z.string(),
  status: z.optional(z.enum(["running", "complete", "stopped", "failed"])),
  usage: z.optional(
    z.nullable(
      z.object({
        promptTokens: z.number(),
        completionTokens: z.number(),
        totalTokens: z.number(),
        estimated: z.optional(z.boolean()),
        model: z.optional(z.string()),
        cost: z.optional(z.nullable(z.number())),
      }),
    ),
  ),
});
export const messageListSchema = z.array(messageSchema);

/** POST /api/messages/{projectId}/stop: false when there was no run to stop yet. */
export const stopRunSchema: z.ZodMiniType<{ stopped: boolean }> = z.object({ stopped: z.boolean() });

/** POST /api/upload/image. */
export const uploadedImageSchema: z.ZodMiniType<{ url: string }> = z.object({ url: z.string() });

const projectFileShape = {
  id: z.string(),
  projectId: z.string(),
  path: z.string(),
  size: z.number(),
  updatedAt: z.string(),
};
export const projectFileSchema: z.ZodMiniType<ProjectFile> = z.object(projectFileShape);
export const projectFileListSchema = z.array(projectFileSchema);
export const fileContentSchema: z.ZodMiniType<FileContent> = z.object({
  ...projectFileShape,
  content: z.string(),
  binary: z.boolean(),
});

/** The download map; files listed in `binary` arrive base64-encoded. */
export type DownloadResponse = DownloadMap & { binary?: string[] };
export const downloadSchema: z.ZodMiniType<DownloadResponse> = z.object({
  projectName: z.string(),
  filesCount: z.number(),
  files: z.record(z.string(), z.string()),
  binary: z.optional(z.array(z.string())),
});

export const sandboxUrlSchema: z.ZodMiniType<SandboxUrl> = z.object({ url: z.nullable(z.string()) });
export const sandboxValidationSchema: z.ZodMiniType<SandboxValidation> = z.object({ isValid: z.boolean() });
export const recreateResultSchema: z.ZodMiniType<RecreateResult> = z.object({
  url: z.string(),
  filesSynced: z.number(),
  workflowCommand: z.nullable(z.string()),
});
/** POST /api/sandbox/{projectId}/run-workflow. */
export const runWorkflowSchema: z.ZodMiniType<{ ok: boolean; workflowCommand: string }> = z.object({
  ok: z.boolean(),
  workflowCommand: z.string(),
});
export const shellResultSchema: z.ZodMiniType<ShellResult> = z.object({
  stdout: z.string(),
  stderr: z.string(),
  error: z.nullable(z.string()),
});


/** GET/PUT /api/projects/{id}/model. */
export const projectModelSchema: z.ZodMiniType<ProjectModel> = z.object({ model: z.string(), models: z.array(z.string()) });
/** GET /api/projects/{id}/context. */
export const contextUsageSchema: z.ZodMiniType<ContextUsage> = z.object({
  model: z.string(),
  usedTokens: z.number(),
  contextTokens: z.number(),
});
/** GET /api/usage. */
export const tokenBudgetSchema: z.ZodMiniType<TokenBudget> = z.object({
  month: z.string(),
  usedTokens: z.number(),
  limitTokens: z.number(),
  resetsAt: z.string(),
});
const deploymentStatusSchema = z.enum(["building", "live", "failed", "superseded"]);
export const deploymentSchema: z.ZodMiniType<Deployment> = z.object({
  id: z.string(),
  createdAt: z.string(),
  status: deploymentStatusSchema,
  url: z.string(),
  versionId: z.nullable(z.string()),
  bytes: z.number(),
  buildLog: z.optional(z.string()),
});
export const deploymentListSchema = z.array(deploymentSchema);
export const publishResultSchema: z.ZodMiniType<PublishResult> = z.object({ deploymentId: z.string(), url: z.string(), status: deploymentStatusSchema });
export const siteStateSchema: z.ZodMiniType<SiteState> = z.object({
  slug: z.nullable(z.string()),
  suggestedSlug: z.string(),
  url: z.nullable(z.string()),
  liveDeploymentId: z.nullable(z.string()),
  unpublishedChanges: z.boolean(),
});
export const liveSiteListSchema: z.ZodMiniType<LiveSite[]> = z.array(z.object({ projectId: z.string(), slug: z.string(), url: z.string() }));
export const versionSummarySchema: z.ZodMiniType<VersionSummary> = z.object({
  id: z.string(),
  createdAt: z.string(),
  label: z.string(),
  source: z.enum(["agent", "user", "restore", "manual"]),
  messageId: z.optional(z.string()),
  filesChanged: z.number(),
  bytes: z.number(),
});
export const versionListSchema = z.array(versionSummarySchema);

const diffEntrySchema = z.object({ path: z.string(), sha256: z.string(), size: z.number() });
/** GET /api/projects/{id}/versions/{a}/diff/{b}. */
export const versionDiffSchema: z.ZodMiniType<VersionDiff> = z.object({
  from: z.string(),
  to: z.string(),
  added: z.array(diffEntrySchema),
  removed: z.array(diffEntrySchema),
  changed: z.array(z.object({ path: z.string(), size: z.number(), fromSha256: z.string(), toSha256: z.string(), fromSize: z.number() })),
  renamed: z.array(z.object({ from: z.string(), to: z.string(), sha256: z.string(), size: z.number() })),
  patches: z.optional(z.array(z.object({ path: z.string(), patch: z.string() }))),
});
/** POST /api/projects/{id}/versions/{versionId}/restore. */
export const restoreResultSchema: z.ZodMiniType<RestoreResult> = z.object({
  version: versionSummarySchema,
  written: z.number(),
  deleted: z.number(),
});
export const problemListSchema: z.ZodMiniType<Problem[]> = z.array(
  z.object({
    id: z.string(),
    source: z.enum(["browser", "server", "build"]),
    message: z.string(),
    file: z.nullable(z.string()),
    line: z.nullable(z.number()),
    firstSeen: z.string(),
    count: z.number(),
    detail: z.nullable(z.string()),
  }),
);
/** One named process of a sandbox (GET /api/sandbox/{projectId}/processes lists them). */
export const processInfoSchema: z.ZodMiniType<ProcessInfo> = z.object({
  name: z.string(),
  command: z.string(),
  status: z.enum(["starting", "running", "exited", "crashed"]),
  exitCode: z.nullable(z.number()),
  ports: z.array(z.number()),
  startedAt: z.nullable(z.string()),
  restarts: z.number(),
});
export const processListSchema = z.array(processInfoSchema);
/** GET /api/sandbox/{projectId}/processes/{name}/logs. */
export const processLogsSchema: z.ZodMiniType<ProcessLogs> = z.object({
  lines: z.array(z.object({ t: z.string(), stream: z.enum(["stdout", "stderr"]), text: z.string() })),
  cursor: z.number(),
});

/** A project's secrets: names and times, never values. */
export const secretInfoSchema: z.ZodMiniType<SecretInfo> = z.object({ name: z.string(), updatedAt: z.string() });
export const secretListSchema = z.array(secretInfoSchema);
