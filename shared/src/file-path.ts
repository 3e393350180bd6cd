/**
 * Project file paths are relative POSIX paths. One rule set, used by the API (to refuse) and the web app
 * (to warn before sending), so both agree on what a legal path is.
 */
import { z } from "zod";

export const MAX_FILE_PATH_LENGTH = 512;
export const MAX_PATH_SEGMENT_LENGTH = 255;

/** Returns a reason the path is illegal, or null when it is fine. */
export function filePathProblem(path: string): string | null {
  if (path.length === 0) return "File path is empty";
  if (path.length > MAX_FILE_PATH_LENGTH) return `File path is longer than ${MAX_FILE_PATH_LENGTH} characters`;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(path)) return "File path contains a control character";
  if (path.includes("\\")) return "File path must use '/' and not '\\'";
  if (path.startsWith("/")) return "File path must be relative, not absolute";
  const segments = path.split("/");
  for (const segment of segments) {
    if (segment === "") return "File path has an empty segment ('//' or a trailing '/')";
    if (segment === "." || segment === "..") return "File path must not contain '.' or '..' segments";
    if (segment.length > MAX_PATH_SEGMENT_LENGTH) return `A file path segment is longer than ${MAX_PATH_SEGMENT_LENGTH} characters`;
  }
  return null;
}

export const filePathSchema = z.string().superRefine((path, ctx) => {
  const problem = filePathProblem(path);
  if (problem) ctx.addIssue({ code: "custom", message: problem });
});
