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
import type { Project } from "./project";
import type { RecreateResult, SandboxUrl, SandboxValidation, ShellResult } from "./sandbox";

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
  usage: z.optional(z.nullable(z.object({ promptTokens: z.number(), completionTokens: z.number(), totalTokens: z.number() }))),
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

