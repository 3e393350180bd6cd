import { z } from "zod";

/** What the API answers, inferred from the response schemas (./responses/). */
export type { RecreateResult, SandboxUrl, SandboxValidation, ShellResult } from "./responses";

export const MAX_SHELL_COMMAND_LENGTH = 10_000;

export const shellCommandSchema = z.object({
  command: z.string().trim().min(1, "Command is empty").max(MAX_SHELL_COMMAND_LENGTH),
});
export type ShellCommand = z.infer<typeof shellCommandSchema>;

/** The project templates kept in the repository (api/templates). */
export const TEMPLATE_NAMES = ["react", "vite", "node", "fullstack"] as const;
export type TemplateName = (typeof TEMPLATE_NAMES)[number];

export const applyTemplateSchema = z.object({
  template: z.enum(TEMPLATE_NAMES, { message: `template must be one of ${TEMPLATE_NAMES.join(", ")}` }),
});
export type ApplyTemplate = z.infer<typeof applyTemplateSchema>;
/** POST /api/sandbox/{projectId}/template: files written, the workflow command started, the preview URL. */
export type ApplyTemplateResult = { filesWritten: number; workflowCommand: string; url: string };
