/**
 * A project's sandbox: its preview URL, recreating it, workflow and shell results, the problems it reported
 * and its named processes with their logs.
 * Part of the API's answer schemas: ./index.ts re-exports them all.
 */
import * as z from "zod/mini";

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
