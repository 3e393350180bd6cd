/**
 * What a project's database holds, read from the catalog: its size, and each table (outside the system
 * schemas) with its columns, types, keys and row count. Counts are PostgreSQL's estimates, made exact by a
 * count(*) for tables under EXACT_COUNT_BELOW rows, where that is cheap and an estimate is most often off
 * (a table just filled, never analysed).
 */
import type { DatabaseColumn } from "@shared/schemas/database";
import type { Sql } from "../../db/client";
import { quoteTable } from "./identifiers";

const EXACT_COUNT_BELOW = 50_000;

export type TableKeys = { primaryKey: string[]; foreignKeys: string[]; unique: string[] };
export type DescribedTable = { name: string; schema: string; table: string; columns: DatabaseColumn[]; rowEstimate: number; keys: TableKeys };

export async function databaseSize(sql: Sql): Promise<number> {
  const [row] = await sql<{ size: string }[]>`select pg_database_size(current_database())::text as size`;
  return Number(row?.size ?? 0);
}

export async function describeTables(sql: Sql): Promise<DescribedTable[]> {
  const tables = await sql<{ oid: number; schema: string; table: string; estimate: number }[]>`
    select c.oid::int as oid, n.nspname as schema, c.relname as table,
           greatest(c.reltuples, coalesce(s.n_live_tup, 0), 0)::float8 as estimate
    from pg_class c
    join pg_namespace n on n.oid = c.relnamespace
    left join pg_stat_user_tables s on s.relid = c.oid
    where c.relkind in ('r', 'p') and not c.relispartition
      and n.nspname not in ('pg_catalog', 'information_schema') and n.nspname not like 'pg\\_%'
    order by n.nspname = 'public' desc, n.nspname, c.relname`;
  if (tables.length === 0) return [];
  const oids = tables.map((t) => t.oid);
  const columns = await sql<{ oid: number; name: string; type: string; nullable: boolean }[]>`
    select attrelid::int as oid, attname as name, format_type(atttypid, atttypmod) as type, not attnotnull as nullable
    from pg_attribute where attrelid = any(${oids}::oid[]) and attnum > 0 and not attisdropped
    order by attrelid, attnum`;
  const constraints = await sql<{ oid: number; kind: string; definition: string; columns: string[] }[]>`
    select con.conrelid::int as oid, con.contype::text as kind, pg_get_constraintdef(con.oid) as definition,
           array(select a.attname::text from unnest(con.conkey) k join pg_attribute a on a.attrelid = con.conrelid and a.attnum = k) as columns
    from pg_constraint con where con.conrelid = any(${oids}::oid[]) and con.contype in ('p', 'f', 'u')
    order by con.conname`;
  const described: DescribedTable[] = [];
  for (const t of tables) {
    const keys: TableKeys = { primaryKey: [], foreignKeys: [], unique: [] };
    for (const c of constraints.filter((c) => c.oid === t.oid)) {
      if (c.kind === "p") keys.primaryKey = c.columns;
      else if (c.kind === "f") keys.foreignKeys.push(c.definition);
      else keys.unique.push(c.columns.join(", "));
    }
    let rowEstimate = Math.round(t.estimate);
    if (rowEstimate < EXACT_COUNT_BELOW) {
      const [row] = await sql.unsafe<{ n: string }[]>(`select count(*)::text as n from ${quoteTable(t.schema, t.table)}`);
      rowEstimate = Number(row?.n ?? 0);
    }
    described.push({
      name: t.schema === "public" ? t.table : `${t.schema}.${t.table}`,
      schema: t.schema,
      table: t.table,
      columns: columns.filter((c) => c.oid === t.oid).map(({ name, type, nullable }) => ({ name, type, nullable })),
      rowEstimate,
      keys,
    });
  }
  return described;
}
