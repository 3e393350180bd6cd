/**
 * What went wrong talking to a git remote, as the answer a person can act on: refused credentials, a URL
 * that is not a git repository, a remote out of reach or too slow, a repository too large. The messages
 * never carry the token (it only ever travels in a header) nor the URL's credentials (stripped on connect).
 */
import { AppError, badRequest, tooLarge } from "../../lib/errors";
import { RefusedUrlError, ResponseTooLargeError } from "../../lib/guarded-http";

export function remoteError(error: unknown, o: { timedOut: boolean; timeoutS: number }): AppError {
  if (error instanceof AppError) return error;
  if (error instanceof RefusedUrlError) return badRequest(error.message);
  if (error instanceof ResponseTooLargeError) return tooLarge(`The repository is too large to bring in: ${error.message}`);
  if (o.timedOut) return new AppError(504, "dependency_unavailable", `The git remote did not answer within ${o.timeoutS} s.`);
  const e = error as { code?: string; data?: { statusCode?: number; statusMessage?: string }; message?: string };
  if (e.code === "HttpError") {
    const status = e.data?.statusCode ?? 0;
    if (status === 401 || status === 403)
      return badRequest(
        `The remote refused the credentials (HTTP ${status}). Check the username and token, and that the token may read and write the repository.`,
      );
    if (status === 404) return badRequest("The remote has no repository at this URL (HTTP 404). Check the URL.");
    return new AppError(502, "dependency_unavailable", `The git remote answered HTTP ${status} ${e.data?.statusMessage ?? ""}`.trim());
  }
  if (e.code === "SmartHttpError" || e.code === "ParseError") return badRequest("The URL does not answer as a git repository (smart HTTP). Check the URL.");
  if (e.code === "PushRejectedError") return new AppError(409, "conflict", "The remote has changes: pull first.");
  const message = e.message ?? String(error);
  if (/fetch failed|ECONNREFUSED|ENOTFOUND|ECONNRESET|EHOSTUNREACH|Unable to connect|ConnectionRefused|certificate/i.test(message)) {
    return new AppError(502, "dependency_unavailable", `The git remote could not be reached (${message.slice(0, 200)}).`);
  }
  return new AppError(502, "dependency_unavailable", `The git operation failed: ${message.slice(0, 300)}`, { cause: error });
}
