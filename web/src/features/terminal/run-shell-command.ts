/**
 * Runs one terminal command in the project's sandbox (POST /api/sandbox/{id}/shell, bearer and cookies)
 * and answers the text to print: the formatted result, or an error line ("Not authenticated", the API's
 * error sentence, the request's own error, else "Unknown error"). Never throws, so the caller can always
 * stop the animation and show the prompt again.
 *
 * @example
 * term.write(await runShellCommand(projectId, "ls"));
 */
import type { ShellResult } from "@shared/schemas/sandbox";
import { ApiError } from "../../api/api-error";
import { getAuthToken } from "../../api/auth-token";
import { api } from "../../api/endpoints";
import { errorLine, formatShellResult } from "./terminal-output";

export type ShellDeps = {
  getToken: () => Promise<string | null>;
  run: (projectId: string, command: string, signal?: AbortSignal) => Promise<ShellResult>;
};

const defaultDeps: ShellDeps = {
  getToken: getAuthToken,
  run: (projectId, command, signal) => api.sandbox.shell(projectId, command, { signal }),
};

/** `signal` aborts the request (Ctrl+C); the caller then ignores the answer, which is an error line. */
export async function runShellCommand(
  projectId: string,
  command: string,
  options: { signal?: AbortSignal } = {},
  deps: ShellDeps = defaultDeps,
): Promise<string> {
  try {
    if (!(await deps.getToken())) return errorLine("Not authenticated");
    const result = await deps.run(projectId, command, options.signal);
    return formatShellResult(result);
  } catch (err) {
    // A non-OK answer: its readable text (the API's error sentence, else the body, else the status text).
    if (err instanceof ApiError) return errorLine(err.error);
    return errorLine(err instanceof Error && err.message ? err.message : "Unknown error");
  }
}
