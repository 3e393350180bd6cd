/** Turns any thrown value into the AppError the client should see. */
import { HTTPException } from "hono/http-exception";
import { AppError, dependencyDown } from "./errors";

/** The error code db/query-watchdog.ts gives a query whose connection stopped answering. */
export const QUERY_TIMEOUT = "QUERY_TIMEOUT";

// postgres.js reports a lost or refused connection with these codes (not a PostgresError with a SQLSTATE).
const CONNECTION_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ENOTFOUND",
  "EPIPE",
  "ETIMEDOUT",
  "ENOENT",
  "CONNECT_TIMEOUT",
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
  // query-watchdog.ts: the server kept the connection open but stopped answering.
  QUERY_TIMEOUT,
]);

export function toAppError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  if (error instanceof HTTPException) {
    if (error.status === 400) return new AppError(400, "bad_request", error.message || "Malformed request body.");
    if (error.status === 413) return new AppError(413, "payload_too_large", "The request body is too large.");
    if (error.status === 401) return new AppError(401, "unauthorized", error.message || "Sign in again.");
  }
  const code = (error as { code?: unknown })?.code;
  if (typeof code === "string") {
    // SQLSTATE class 08 = connection exception, 57P0x = server shutting down, 53300 = too many connections.
    if (CONNECTION_CODES.has(code) || code.startsWith("08") || code.startsWith("57P") || code === "53300") {
      return dependencyDown("Database", error);
    }
  }
  return new AppError(500, "internal", "Something went wrong on the server. Try again; if it keeps happening, check the server log.", {
    cause: error,
  });
}
