/**
 * A project database's schema and data as one JSON document, made and put back with SQL alone (no pg_dump,
 * which the embedded PGlite databases cannot serve): sequences, tables (columns, defaults, constraints),
 * indexes, and each table's rows as JSON. Restoring replaces everything in the public schema with the dump.
 * Covers what apps made from migrations hold: tables, sequences, indexes, keys; not views, functions,
 * triggers or other schemas.
 *
 * @example
 * const dump = await dumpDatabase(sql);     // { version: 1, sequences, tables, indexes, data }
 * await restoreDatabase(sql, dump);         // the public schema as it was
 */
import type { Sql } from "../../db/client";
import { quoteIdent } from "./identifiers";

export type DatabaseDump = {
  version: 1;
  sequences: { name: string; definition: string; value: string | null }[];
  tables: { name: string; columns: string[]; constraints: string[] }[];
  indexes: string[];
  /** Rows as JSON text per table, in an order that satisfies foreign keys when constraints are added last. */
  data: { table: string; rows: string }[];
};

export async function dumpDatabase(sql: Sql): Promise<DatabaseDump> {
  return sql.begin("isolation level repeatable read read only", async (tx) => {
    const sequences = await tx<{ name: string; type: string; start: string; inc: string; min: string; max: string; cycle: boolean; value: string | null }[]>`
      select c.relname as name, format_type(s.seqtypid, null) as type, s.seqstart::text as start, s.seqincrement::text as inc,
             s.seqmin::text as min, s.seqmax::text as max, s.seqcycle as cycle, ps.last_value::text as value
      from pg_sequence s join pg_class c on c.oid = s.seqrelid join pg_namespace n on n.oid = c.relnamespace
      left join pg_sequences ps on ps.schemaname = n.nspname and ps.sequencename = c.relname
      where n.nspname = 'public' order by c.relname`;
    const tables = await tx<{ oid: number; name: string }[]>`
      select c.oid::int as oid, c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind = 'r' order by c.relname`;
    const columns = await tx<{ oid: number; definition: string }[]>`
      select a.attrelid::int as oid,
             quote_ident(a.attname) || ' ' || format_type(a.atttypid, a.atttypmod)
               || coalesce(' default ' || pg_get_expr(d.adbin, d.adrelid), '') || case when a.attnotnull then ' not null' else '' end as definition
      from pg_attribute a left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
      where a.attrelid = any(${tables.map((t) => t.oid)}::oid[]) and a.attnum > 0 and not a.attisdropped
      order by a.attrelid, a.attnum`;
    const constraints = await tx<{ oid: number; definition: string; kind: string }[]>`
      select conrelid::int as oid, 'constraint ' || quote_ident(conname) || ' ' || pg_get_constraintdef(oid) as definition, contype::text as kind
      from pg_constraint where conrelid = any(${tables.map((t) => t.oid)}::oid[]) and contype in ('p', 'u', 'c', 'f', 'x')
      order by contype = 'f', conname`;
    const indexes = await tx<{ definition: string }[]>`
      select pg_get_indexdef(i.indexrelid) as definition from pg_index i
      where i.indrelid = any(${tables.map((t) => t.oid)}::oid[])
        and not exists (select 1 from pg_constraint c where c.conindid = i.indexrelid)
      order by i.indexrelid`;
    const data: DatabaseDump["data"] = [];
    for (const t of tables) {
      const [row] = await tx.unsafe<{ rows: string }[]>(
        `select coalesce(json_agg(t), '[]')::text as rows from ${quoteIdent("public")}.${quoteIdent(t.name)} t`,
      );
      data.push({ table: t.name, rows: row?.rows ?? "[]" });
    }
    return {
      version: 1,
      sequences: sequences.map((s) => ({
        name: s.name,
        definition: `create sequence ${quoteIdent(s.name)} as ${s.type} increment ${s.inc} minvalue ${s.min} maxvalue ${s.max} start ${s.start}${s.cycle ? " cycle" : ""}`,
        value: s.value,
      })),
      tables: tables.map((t) => ({
        name: t.name,
        columns: columns.filter((c) => c.oid === t.oid).map((c) => c.definition),
        constraints: constraints.filter((c) => c.oid === t.oid).map((c) => c.definition),
      })),
      indexes: indexes.map((i) => i.definition),
      data,
    };
  });
}

/**
 * The dump as stored bytes (gzipped JSON). Each table's rows are already JSON text from the server, so they are
 * spliced in as they are rather than escaped into a string again (that second encoding cost more than the gzip).
 */
export function dumpToBytes(dump: DatabaseDump): Uint8Array {
  const { data, ...schema } = dump;
  const rows = data.map((d) => `{"table":${JSON.stringify(d.table)},"rows":${d.rows}}`).join(",");
  const text = `${JSON.stringify(schema).slice(0, -1)},"data":[${rows}]}`;
  return Bun.gzipSync(new TextEncoder().encode(text), { level: 1 });
}

export function dumpFromBytes(bytes: Uint8Array): DatabaseDump {
  const parsed = JSON.parse(new TextDecoder().decode(Bun.gunzipSync(new Uint8Array(bytes)))) as Omit<DatabaseDump, "data"> & {
    data: { table: string; rows: unknown }[];
  };
  return { ...parsed, data: parsed.data.map((d) => ({ table: d.table, rows: typeof d.rows === "string" ? d.rows : JSON.stringify(d.rows) })) };
}

/** Replaces the public schema's tables and sequences with the dump's, in one transaction. */
export async function restoreDatabase(sql: Sql, dump: DatabaseDump): Promise<void> {
  // read write: a database over its size limit defaults to read-only, and putting back an older state may be what frees it.
  await sql.begin("read write", async (tx) => {
    const existing = await tx<{ name: string; kind: string }[]>`
      select c.relname as name, c.relkind::text as kind from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind in ('r', 'S', 'v', 'm')`;
    for (const kind of ["v", "m", "r", "S"]) {
      const names = existing.filter((e) => e.kind === kind).map((e) => `public.${quoteIdent(e.name)}`);
      const what = { v: "view", m: "materialized view", r: "table", S: "sequence" }[kind];
      if (names.length) await tx.unsafe(`drop ${what} if exists ${names.join(", ")} cascade`);
    }
    for (const s of dump.sequences) await tx.unsafe(s.definition.replace("create sequence ", "create sequence public."));
    for (const t of dump.tables) await tx.unsafe(`create table public.${quoteIdent(t.name)} (${t.columns.join(", ")})`);
    for (const d of dump.data) {
      const table = `public.${quoteIdent(d.table)}`;
      await tx.unsafe(`insert into ${table} select * from json_populate_recordset(null::${table}, $1::text::json)`, [d.rows]);
    }
    for (const t of dump.tables) {
      for (const c of t.constraints) await tx.unsafe(`alter table public.${quoteIdent(t.name)} add ${c}`);
    }
    for (const i of dump.indexes) await tx.unsafe(i);
    for (const s of dump.sequences) {
      if (s.value !== null) await tx.unsafe(`select setval('public.${quoteIdent(s.name).replaceAll("'", "''")}', ${Number(s.value)}, true)`);
    }
    // serial columns: the sequence belongs to its column again, so dropping the table drops it.
    const owned = await tx<{ seq: string; tbl: string; col: string }[]>`
      select s.relname as seq, t.relname as tbl, a.attname as col
      from pg_attrdef d join pg_class t on t.oid = d.adrelid join pg_attribute a on a.attrelid = d.adrelid and a.attnum = d.adnum
      join pg_depend dep on dep.objid = d.oid and dep.refclassid = 'pg_class'::regclass
      join pg_class s on s.oid = dep.refobjid and s.relkind = 'S'
      join pg_namespace n on n.oid = t.relnamespace where n.nspname = 'public'`;
    for (const o of owned) await tx.unsafe(`alter sequence public.${quoteIdent(o.seq)} owned by public.${quoteIdent(o.tbl)}.${quoteIdent(o.col)}`);
  });
}
