/**
 * The one error type services throw. `app.onError` turns it into `{ error, code }` with its status;
 * anything else becomes a 500 (or 503 when a dependency is down).
 */
import type { ErrorCode } from "@shared/errors";

export class AppError extends Error {
  /** Extra response headers (e.g. `Retry-After` on a 429). */
  readonly headers: Record<string, string>;
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 409 | 413 | 415 | 429 | 500 | 502 | 503 | 504,
    readonly code: ErrorCode,
    message: string,
    options?: { cause?: unknown; headers?: Record<string, string> },
  ) {
    super(message, options);
    this.headers = options?.headers ?? {};
  }
}

export const badRequest = (message: string) => new AppError(400, "bad_request", message);
export const unauthorized = (message = "Sign in again: your session is missing or has expired.") => new AppError(401, "unauthorized", message);
/** 403: the caller may see the thing but not do this to it (a viewer writing); strangers get `notFound`. */
export const forbidden = (message: string) => new AppError(403, "forbidden", message);
export const notFound = (what: string) => new AppError(404, "not_found", `${what} not found`);
export const conflict = (message: string) => new AppError(409, "conflict", message);
export const tooLarge = (message: string) => new AppError(413, "payload_too_large", message);
/** 429 with a wait a person can read and the same wait, in whole seconds, as `Retry-After`. */
export const rateLimited = (what: string, retryAfterSeconds: number) => {
  const wait = Math.max(1, Math.ceil(retryAfterSeconds));
  return new AppError(429, "rate_limited", `Too many ${what} — try again in ${wait} s.`, { headers: { "Retry-After": String(wait) } });
};
export const unsupportedMedia = (message: string) => new AppError(415, "unsupported_media_type", message);
export const dependencyDown = (which: "Database" | "Storage", cause: unknown) =>
  new AppError(503, "dependency_unavailable", `${which} is unreachable right now; try again in a moment.`, { cause });
