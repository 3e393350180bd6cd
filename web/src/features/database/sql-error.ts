/**
 * What the SQL box shows for a failed statement: PostgreSQL's message and, when it names one, the line and
 * column its position (1-based, in characters) falls on, with that line and a caret under the column.
 */
import { ApiError, describeError } from "../../api/api-error";

export type SqlErrorView = { message: string; at: { line: number; column: number; text: string } | null };

export function sqlErrorView(err: unknown, sql: string): SqlErrorView {
  const message = describeError(err, "The query failed");
  const position = err instanceof ApiError ? positionOf(err.body) : null;
  return { message, at: position === null ? null : locate(sql, position) };
}

function positionOf(body: string): number | null {
  try {
    const position = (JSON.parse(body) as { position?: unknown }).position;
    return typeof position === "number" && Number.isInteger(position) && position > 0 ? position : null;
  } catch {
    return null;
  }
}

/** The line (1-based), column (1-based) and text of the line that character `position` is on. */
export function locate(sql: string, position: number): { line: number; column: number; text: string } {
  const chars = Array.from(sql); // PostgreSQL counts characters, not UTF-16 units
  const index = Math.min(position, chars.length + 1) - 1;
  const before = chars.slice(0, index).join("");
  const lineStart = before.lastIndexOf("\n") + 1;
  const line = before.split("\n").length;
  const column = Array.from(before.slice(lineStart)).length + 1;
  const rest = sql.slice(lineStart);
  const end = rest.indexOf("\n");
  return { line, column, text: end === -1 ? rest : rest.slice(0, end) };
}
