/** PostgreSQL's names for the type oids of result columns (the usual ones known, the rest looked up). */
import type { Sql } from "../../db/client";

const KNOWN = new Map<number, string>([
  [16, "boolean"],
  [17, "bytea"],
  [20, "bigint"],
  [21, "smallint"],
  [23, "integer"],
  [25, "text"],
  [114, "json"],
  [700, "real"],
  [701, "double precision"],
  [1042, "character"],
  [1043, "character varying"],
  [1082, "date"],
  [1114, "timestamp without time zone"],
  [1184, "timestamp with time zone"],
  [1700, "numeric"],
  [2950, "uuid"],
  [3802, "jsonb"],
]);

export async function typeNames(sql: Sql, oids: number[]): Promise<Map<number, string>> {
  const names = new Map<number, string>();
  const unknown = [...new Set(oids)].filter((oid) => {
    const known = KNOWN.get(oid);
    if (known) names.set(oid, known);
    return !known;
  });
  if (unknown.length) {
    const rows = await sql.unsafe<{ oid: number; name: string }[]>(
      "select oid::int as oid, format_type(oid, null) as name from pg_type where oid = any($1::oid[])",
      [unknown as never],
    );
    for (const row of rows) names.set(row.oid, row.name);
  }
  return names;
}
