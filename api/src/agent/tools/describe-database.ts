/**
 * describe_database: the project's development database as the model needs it to write queries and
 * migrations: each table with its columns, types, nullability, keys and row count.
 */
import { z } from "zod";
import type { DatabaseTableInfo } from "../ports";
import { clip, defineTool, ToolError, type ToolContext } from "./define-tool";

export function projectDatabase(ctx: ToolContext) {
  if (!ctx.database) throw new ToolError("This server has no project databases, so the app cannot keep data in PostgreSQL here.");
  return ctx.database;
}

function formatTable(t: DatabaseTableInfo): string {
  const lines = [`table ${t.name} (${t.rowEstimate.toLocaleString("en")} row${t.rowEstimate === 1 ? "" : "s"})`];
  for (const c of t.columns) lines.push(`  ${c.name} ${c.type}${c.nullable ? "" : " not null"}${t.primaryKey.includes(c.name) ? " (primary key)" : ""}`);
  if (t.primaryKey.length > 1) lines.push(`  primary key (${t.primaryKey.join(", ")})`);
  for (const u of t.unique) lines.push(`  unique (${u})`);
  for (const f of t.foreignKeys) lines.push(`  ${f}`);
  return lines.join("\n");
}

export const describeDatabaseTool = defineTool({
  name: "describe_database",
  description:
    "Describe the project's development PostgreSQL database (the one DATABASE_URL points to): its tables, " +
    "columns with types and nullability, primary, unique and foreign keys, and row counts.",
  input: z.object({}),
  summary: () => "database",
  async run(_input, ctx) {
    const { sizeBytes, tables } = await projectDatabase(ctx).describe();
    const size = `${Math.max(1, Math.round(sizeBytes / 1024)).toLocaleString("en")} kB`;
    if (tables.length === 0) {
      return { result: `The database is empty (no tables; ${size}). Create tables with a migration in db/migrations/.`, summary: "no tables" };
    }
    const count = `${tables.length} table${tables.length === 1 ? "" : "s"}`;
    return { result: clip(`${count}, ${size}:\n\n${tables.map(formatTable).join("\n\n")}`), summary: count };
  },
});
