import { z } from "zod";

export const MAX_SHELL_COMMAND_LENGTH = 10_000;

export const shellCommandSchema = z.object({
  command: z.string().trim().min(1, "Command is empty").max(MAX_SHELL_COMMAND_LENGTH),
});
export type ShellCommand = z.infer<typeof shellCommandSchema>;

export type ShellResult = { stdout: string; stderr: string; error: string | null };
export type SandboxUrl = { url: string | null };
export type SandboxValidation = { isValid: boolean };
export type RecreateResult = { url: string; filesSynced: number; workflowCommand: string | null };
