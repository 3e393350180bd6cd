/**
 * A page of one table's rows for the Database view, in the order asked for (a column, `-column` for
 * descending; by default the primary key), with the table's exact row count. The table and column must
 * exist: names are matched against the catalog and quoted, never put into SQL as given.
 */
import type { TableRows, TableRowsQuery } from "@shared/schemas/database";
import type { Sql } from "../../db/client";
import { notFound, badRequest } from "../../lib/errors";
import { toCell } from "./cells";
import { describeTables } from "./introspect";
import { quoteIdent, quoteTable } from "./identifiers";
import { asSqlError } from "./sql-error";
import { typeNames } from "./type-names";

/** `readOnly`: the page is read in a READ ONLY transaction (production). */
export async function readTableRows(sql: Sql, name: string, page: TableRowsQuery, timeoutMs: number, options: { readOnly?: boolean } = {}): Promise<TableRows> {
  const table = (await describeTables(sql)).find((t) => t.name === name);
  if (!table) throw notFound(`Table "${name}"`);
  const descending = page.order?.startsWith("-") ?? false;
  const column = page.order ? page.order.slice(descending ? 1 : 0) : undefined;
  if (column !== undefined && !table.columns.some((c) => c.name === column)) {
    throw badRequest(`The table "${name}" has no column "${column}" to sort by.`);
  }
  const orderBy = column !== undefined ? [quoteIdent(column)] : table.keys.primaryKey.map(quoteIdent);
  const from = quoteTable(table.schema, table.table);
  const order = orderBy.length ? ` order by ${orderBy.map((c) => `${c} ${descending ? "desc" : "asc"}`).join(", ")}` : "";
  try {
    return await sql.begin(options.readOnly ? "read only" : "read write", async (tx) => {
      await tx.unsafe(`set local statement_timeout = ${Math.round(timeoutMs)}`);
      const result = await tx.unsafe(`select * from ${from}${order} limit ${page.limit} offset ${page.offset}`, [], { prepare: false }).values();
      const [count] = await tx.unsafe<{ n: string }[]>(`select count(*)::text as n from ${from}`);
      const columns = (result as unknown as { columns: { name: string; type: number }[] }).columns;
      const names = await typeNames(
        tx as unknown as Sql,
        columns.map((c) => c.type),
      );
      return {
        columns: columns.map((c) => ({ name: c.name, type: names.get(c.type) ?? String(c.type) })),
        rows: (result as unknown as unknown[][]).map((row) => row.map((v) => toCell(v))),
        total: Number(count?.n ?? 0),
      };
    });
  } catch (error) {
    throw asSqlError(error, timeoutMs);
  }
}
