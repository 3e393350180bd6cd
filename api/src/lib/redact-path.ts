/**
 * Request paths as they may be logged: a share link's token (`/api/share/<token>`) is the link itself, so it
 * never reaches a log line; the rest of the path is kept for reading the log.
 *
 * @example
 * redactPath("/api/share/abc123"); // "/api/share/[token]"
 */

/** The path a share link's URL opens; the token is its last segment. */
export const SHARE_PATH = "/api/share/";

export function redactPath(path: string): string {
  return path.startsWith(SHARE_PATH) ? `${SHARE_PATH}[token]` : path;
}
