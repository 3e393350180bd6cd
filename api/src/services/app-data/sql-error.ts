/**
 * A statement PostgreSQL refused, or one cancelled at the time limit: its message, the 1-based character
 * position in the SQL it points at (when it names one) and its SQLSTATE. Routes answer it as a 400.
 */
export class SqlError extends Error {
  constructor(
    message: string,
    readonly position: number | undefined,
    readonly sqlState: string | undefined,
  ) {
    super(message);
    this.name = "SqlError";
  }
}

type PgError = { name: string; message: string; code?: string; position?: string; detail?: string; hint?: string };

const isPgError = (error: unknown): error is PgError =>
  error instanceof Error && error.name === "PostgresError" && typeof (error as { code?: unknown }).code === "string";

/** SQLSTATE 57014: the statement was cancelled (our timer or statement_timeout). */
export const QUERY_CANCELED = "57014";

/** A PostgreSQL error as a SqlError (message with its detail and hint); anything else is left as it is. */
export function asSqlError(error: unknown, timeoutMs: number): unknown {
  if (!isPgError(error)) return error;
  if (error.code === QUERY_CANCELED) {
    return new SqlError(
      `The statement ran longer than ${timeoutMs / 1000} s and was cancelled. Make it cheaper (an index, a LIMIT) or split it into smaller steps.`,
      undefined,
      error.code,
    );
  }
  const extra = [error.detail, error.hint && `Hint: ${error.hint}`].filter(Boolean).join(" ");
  const position = error.position ? Number(error.position) : undefined;
  return new SqlError(extra ? `${error.message}. ${extra}` : error.message, Number.isInteger(position) ? position : undefined, error.code);
}
