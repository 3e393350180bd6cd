/**
 * run_sql: SQL against the project's development database (never production), for migrations and checks.
 * At most MAX_ROWS rows come back, as tab-separated text capped at MAX_RESULT_CHARS; statements stop after
 * 10 s. Destructive statements run (a version keeps the data, so the run can be undone) and show in the
 * chat as a warning step.
 */
import { z } from "zod";
import type { QueryResult } from "@shared/schemas/database";
import { splitStatements } from "../../lib/sql-statements";
import { clip, defineTool, ToolError } from "./define-tool";
import { projectDatabase } from "./describe-database";
import { destructiveStatements } from "./destructive-sql";

export const MAX_ROWS = 200;
export const MAX_RESULT_CHARS = 8_000;
export const TIMEOUT_MS = 10_000;
const MAX_CELL_CHARS = 500;

function cellText(value: unknown): string {
  if (value === null) return "NULL";
  const text = typeof value === "object" ? JSON.stringify(value) : String(value);
  return text.replace(/[\t\n\r]/g, " ");
}

function formatResult(result: QueryResult, statements: number): string {
  // Several statements answer the last one's result; a count of changed rows is only known for one.
  if (result.columns.length === 0 && statements > 1) return `OK: ${statements} statements ran (${result.ms} ms).`;
  if (result.columns.length === 0) return `OK: ${result.rowCount} row${result.rowCount === 1 ? "" : "s"} affected (${result.ms} ms).`;
  const lines = [result.columns.map((c) => c.name).join("\t"), ...result.rows.map((row) => row.map(cellText).join("\t"))];
  const shown = result.truncated
    ? `the first ${result.rows.length} rows (more were returned)`
    : `${result.rows.length} row${result.rows.length === 1 ? "" : "s"}`;
  return clip(`${shown} (${result.ms} ms):\n${lines.join("\n")}`, MAX_RESULT_CHARS);
}

/** Line and column of a 1-based character position, for an error the model can find in its SQL. */
function where(sql: string, position: number): string {
  const before = Array.from(sql)
    .slice(0, position - 1)
    .join("");
  const line = before.split("\n").length;
  return ` (at line ${line}, column ${before.length - before.lastIndexOf("\n")})`;
}

export const runSqlTool = defineTool({
  name: "run_sql",
  description:
    "Run SQL on the project's development PostgreSQL database (DATABASE_URL): one or more statements, run " +
    "all or nothing; the last result is returned (at most 200 rows). Each statement stops after 10 s. Use it to " +
    "apply a new migration from db/migrations/ (run the file's SQL, then record it: " +
    "INSERT INTO _migrations (name) VALUES ('NNN_name.sql') when that table exists) and to check data. Destructive " +
    "statements (DROP, TRUNCATE, DELETE/UPDATE without WHERE) run and are shown to the user as a warning.",
  input: z.object({ sql: z.string().min(1).describe("The SQL to run") }),
  summary: (input) => input.sql.replace(/\s+/g, " ").trim().slice(0, 80),
  async run(input, ctx) {
    const database = projectDatabase(ctx);
    const answer = await database.run(input.sql, { maxRows: MAX_ROWS, timeoutMs: TIMEOUT_MS, maxCellChars: MAX_CELL_CHARS });
    if ("failed" in answer) {
      const { message, position } = answer.failed;
      throw new ToolError(`The SQL failed: ${message}${position ? where(input.sql, position) : ""}. Nothing was changed.`);
    }
    for (const what of destructiveStatements(input.sql)) ctx.step(`Destructive SQL ran: ${what}`, "warning");
    const { result } = answer;
    const statements = splitStatements(input.sql).length;
    const summary = result.columns.length
      ? `${result.rows.length}${result.truncated ? "+" : ""} rows`
      : statements > 1
        ? `${statements} statements ran`
        : `${result.rowCount} rows affected`;
    return { result: formatResult(result, statements), summary };
  },
});
