/**
 * Runs SQL text against a project's database for the SQL box and the agent's run_sql: on one connection of
 * its own, under `statement_timeout` and a timer that cancels the statement (in case the SQL turns the
 * timeout off), with at most `maxRows` rows kept. One reading statement is read through a cursor, so a
 * huge result is never fetched; several statements run as one simple query (one implicit transaction:
 * all or nothing) and the last result is answered. The session is reset afterwards.
 *
 * @example
 * const result = await runSql(projectSql, "select * from items", { maxRows: 500, timeoutMs: 10_000 });
 */
import type { QueryResult } from "@shared/schemas/database";
import type { Sql } from "../../db/client";
import { splitStatements } from "../../lib/sql-statements";
import { toCell } from "./cells";
import { asSqlError, QUERY_CANCELED, SqlError } from "./sql-error";
import { typeNames } from "./type-names";

/**
 * `readOnly` (production in the Database view): the statements run inside one READ ONLY transaction that is
 * rolled back, and statements that would end it or change the session (BEGIN, COMMIT, SET, …) are refused first.
 */
export type RunSqlOptions = { maxRows: number; timeoutMs: number; maxCellChars?: number; readOnly?: boolean };

/** Statements that could leave a READ ONLY transaction or change the session's defaults. */
const SESSION_CHANGING = /^(begin|start|commit|end|rollback|abort|savepoint|release|prepare|set|reset|discard|do|call|listen|notify|lock|copy)\b/i;

type RawResult = unknown[][] & { count?: number | null; command?: string | null; columns?: { name: string; type: number }[] };

const READING = /^(select|with|values|table|show|explain)\b/i;

export async function runSql(sql: Sql, text: string, options: RunSqlOptions): Promise<QueryResult> {
  const statements = splitStatements(text);
  if (statements.length === 0) throw new SqlError("There is no statement to run (only comments or blanks).", undefined, undefined);
  const refused = options.readOnly ? statements.find((s) => SESSION_CHANGING.test(s.code)) : undefined;
  if (refused) {
    throw new SqlError(
      `Production is read-only here: "${refused.code.split(" ")[0]!.toUpperCase()}" is not allowed. Change production data through the app or a migration (db/migrations) and publish.`,
      undefined,
      undefined,
    );
  }
  const reserved = await sql.reserve();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running: Promise<unknown> = Promise.resolve();
  let gaveUp = false;
  let cancelled = false;
  /**
   * The statement's answer, or at the time limit a cancel request; if the server does not stop (PGlite runs
   * statements on its one thread and cannot cancel them), the caller is answered a moment later anyway.
   */
  const bounded = <T>(query: { cancel(): void }, answer: Promise<T>): Promise<T> => {
    running = answer.catch(() => {});
    return new Promise<T>((resolve, reject) => {
      timer = setTimeout(() => {
        query.cancel();
        // The clean-up waits on the server: an embedded one is restarted to cancel, which takes seconds.
        cancelled = true;
        timer = setTimeout(() => {
          gaveUp = true;
          reject(Object.assign(new Error("canceling statement due to the time limit"), { name: "PostgresError", code: QUERY_CANCELED }));
        }, 1_000);
      }, options.timeoutMs + 250);
      answer.then(resolve, reject);
    });
  };
  try {
    await reserved.unsafe(`set statement_timeout = ${Math.round(options.timeoutMs)}`);
    // Rolled back by the clean-up below; a write inside fails with PostgreSQL's "read-only transaction" error.
    if (options.readOnly) await reserved.unsafe("begin transaction read only");
    const started = performance.now();
    let result: RawResult;
    let truncated = false;
    try {
      if (statements.length === 1 && READING.test(statements[0]!.code)) {
        const query = reserved.unsafe(text, [], { prepare: false }).values();
        const rows: unknown[][] = [];
        let columns: RawResult["columns"];
        const final = (await bounded(
          query,
          query.cursor(options.maxRows + 1, (batch) => {
            rows.push(...(batch as unknown as unknown[][]));
            columns = (batch as unknown as RawResult).columns;
            // One batch is enough: more rows than that are not shown.
            return sql.CLOSE;
          }),
        )) as unknown as RawResult | undefined;
        truncated = rows.length > options.maxRows;
        result = Object.assign(rows.slice(0, options.maxRows), { count: Math.min(rows.length, options.maxRows), columns: columns ?? final?.columns });
      } else {
        const query = statements.length === 1 ? reserved.unsafe(text, [], { prepare: false }).values() : reserved.unsafe(text).simple().values();
        result = lastResult((await bounded(query, query)) as unknown as RawResult | RawResult[]);
        truncated = result.length > options.maxRows;
      }
    } catch (error) {
      throw asSqlError(error, options.timeoutMs);
    }
    const ms = Math.round((performance.now() - started) * 10) / 10;
    const columns = result.columns ?? [];
    const names = await typeNames(
      reserved as unknown as Sql,
      columns.map((c) => c.type),
    );
    const rows = result.slice(0, options.maxRows).map((row) => row.map((v) => toCell(v, options.maxCellChars)));
    return {
      columns: columns.map((c) => ({ name: c.name, type: names.get(c.type) ?? String(c.type) })),
      rows,
      rowCount: columns.length ? Math.max(result.length, result.count ?? 0) : (result.count ?? 0),
      truncated,
      ms,
    };
  } finally {
    clearTimeout(timer);
    // Whatever the SQL left behind (an open transaction, changed settings) goes with it, once it has ended.
    const cleanUp = running.then(async () => {
      await reserved
        .unsafe("rollback; reset all")
        .simple()
        .catch(() => {});
      reserved.release();
    });
    // Not waited for when the statement is still running past the limit, or was cancelled.
    if (!gaveUp && !cancelled) await cleanUp;
  }
}

/**
 * The last result: with two or more row-returning statements postgres.js answers a list of results (arrays
 * that carry `command`), else one result (whose rows, from `.values()`, are plain arrays).
 */
function lastResult(answer: RawResult | RawResult[]): RawResult {
  const first = answer[0];
  if (first !== undefined && "command" in first) return answer[answer.length - 1] as RawResult;
  return answer as RawResult;
}
