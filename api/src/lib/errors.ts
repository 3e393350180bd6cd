/**
 * The one error type services throw. `app.onError` turns it into `{ error, code }` with its status;
 * anything else becomes a 500 (or 503 when a dependency is down).
 */
import type { ErrorCode } from "@shared/errors";

export class AppError extends Error {
  constructor(
    readonly status: 400 | 401 | 404 | 409 | 413 | 415 | 429 | 500 | 503,
    readonly code: ErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export const badRequest = (message: string) => new AppError(400, "bad_request", message);
export const unauthorized = (message = "Sign in again: your session is missing or has expired.") =>
  new AppError(401, "unauthorized", message);
export const notFound = (what: string) => new AppError(404, "not_found", `${what} not found`);
export const conflict = (message: string) => new AppError(409, "conflict", message);
export const tooLarge = (message: string) => new AppError(413, "payload_too_large", message);
export const unsupportedMedia = (message: string) => new AppError(415, "unsupported_media_type", message);
export const dependencyDown = (which: "Database" | "Storage", cause: unknown) =>
  new AppError(503, "dependency_unavailable", `${which} is unreachable right now; try again in a moment.`, { cause });
