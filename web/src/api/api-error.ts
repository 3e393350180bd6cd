/**
 * The error every failed API call throws. `message` keeps the "<status>: <body or statusText>" form;
 * `error` is the readable sentence from the API's `{ error, code }` body, fit for a toast.
 */
import type { ErrorBody } from "@shared/errors";

export class ApiError extends Error {
  constructor(
    readonly status: number,
    /** Machine code from the body (`not_found`, `unauthorized`, ...), or null when the body was not ours. */
    readonly code: string | null,
    /** What a person can read: the body's `error`, else the raw body, else the status text. */
    readonly error: string,
    /** The raw body, for answers that carry more than `{ error, code }` (a SQL error's position). */
    readonly body: string,
    statusText: string,
  ) {
    super(`${status}: ${body || statusText}`);
    this.name = "ApiError";
  }

  static async fromResponse(res: Response): Promise<ApiError> {
    const body = await res.text().catch(() => "");
    let code: string | null = null;
    let readable = body || res.statusText || `HTTP ${res.status}`;
    try {
      const parsed: unknown = JSON.parse(body);
      if (isErrorBody(parsed)) {
        code = parsed.code;
        readable = parsed.error;
      }
    } catch {
      // Not JSON (a proxy's HTML page, say): keep the raw text.
    }
    return new ApiError(res.status, code, readable, body, res.statusText);
  }
}

/** A sentence for a toast from anything thrown. */
export function describeError(err: unknown, fallback = "Something went wrong"): string {
  if (err instanceof ApiError) return err.error;
  if (err instanceof Error && err.message) return err.message;
  return fallback;
}

/**
 * The shape of @shared/errors' errorBodySchema, checked by hand: this module is on the landing page's path
 * (the auth config fetch), and zod would add ~22 KB gzipped to a page whose budget is 150 KB.
 */
function isErrorBody(value: unknown): value is ErrorBody {
  if (typeof value !== "object" || value === null) return false;
  const { error, code } = value as Record<string, unknown>;
  return typeof error === "string" && typeof code === "string";
}
