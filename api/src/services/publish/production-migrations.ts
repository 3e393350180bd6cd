/**
 * Production data at publish (issue 22, item 2): the project's production database, made at its first server
 * publish, gets the deployment's `db/migrations/*.sql` files it has not had yet, in lexical order, each in a
 * transaction of its own and recorded in its `_migrations` table. A failing file rolls back (production is
 * unchanged by it) and fails the publish with PostgreSQL's message and the line it points at.
 *
 * @example
 * const applied = await applyProductionMigrations(deps, projectId, version.manifest, log);
 * // ["001_todos.sql", "002_done.sql"]: every migration production has now
 */
import { blobKey } from "../../db/blobs";
import type { Manifest } from "../../db/versions";
import { ensureProjectDatabase, withProjectDatabase } from "../app-databases";
import type { ServiceContext } from "../context";

export class MigrationError extends Error {}

const MIGRATION = /^db\/migrations\/([^/]+\.sql)$/;

/** The deployment's migration files, by file name in lexical order. */
export function migrationFiles(manifest: Manifest): { name: string; path: string; sha256: string }[] {
  return Object.entries(manifest)
    .flatMap(([path, [sha256]]) => {
      const m = MIGRATION.exec(path);
      return m ? [{ name: m[1]!, path, sha256 }] : [];
    })
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** 1-based line of a 1-based character position in `text`. */
const lineOf = (text: string, position: number) => text.slice(0, Math.max(0, position - 1)).split("\n").length;

export async function applyProductionMigrations(
  ctx: ServiceContext,
  projectId: string,
  manifest: Manifest,
  log: { write(text: string): void },
): Promise<string[]> {
  const created = !(await ctx.productionDatabases?.exists(projectId));
  await ensureProjectDatabase(ctx, projectId, "production");
  if (created) log.write("Created the production database.\n");
  const files = migrationFiles(manifest);
  return withProjectDatabase(
    ctx,
    projectId,
    async (sql) => {
      await sql`create table if not exists _migrations (name text primary key, applied_at timestamptz not null default now())`;
      const done = new Set((await sql<{ name: string }[]>`select name from _migrations`).map((r) => r.name));
      for (const file of files) {
        if (done.has(file.name)) continue;
        const bytes = await ctx.store.get(blobKey(file.sha256));
        if (!bytes) throw new MigrationError(`Migration ${file.path} could not be read from storage.`);
        const text = new TextDecoder().decode(bytes);
        log.write(`Applying migration ${file.name} to production…\n`);
        try {
          await sql.begin(async (tx) => {
            await tx.unsafe(text).simple();
            await tx`insert into _migrations (name) values (${file.name})`;
          });
        } catch (error) {
          const e = error as { message?: string; position?: string | number };
          const at = e.position ? ` (line ${lineOf(text, Number(e.position))})` : "";
          throw new MigrationError(
            `Migration ${file.path} failed${at}: ${e.message ?? String(error)}. It was rolled back: production data is unchanged by it, and the live deployment stays.`,
          );
        }
        done.add(file.name);
      }
      return (await sql<{ name: string }[]>`select name from _migrations order by name`).map((r) => r.name);
    },
    "production",
  );
}
