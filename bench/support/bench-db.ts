/**
 * A throwaway database for the bench on a real PostgreSQL server: created fresh, migrated with the app's own
 * migrations, seeded with one user owning `projects` projects (plus other users' projects, so the owner
 * filter has work to do), and dropped at the end.
 */
import postgres from "postgres";
import type { Sql } from "../../api/src/db/client";
import { migrate } from "../../api/src/db/migrate";
import { redactUrl } from "../../api/src/lib/config";

export type BenchDb = { url: string; name: string; drop(): Promise<void> };

export async function createBenchDb(adminUrl: string): Promise<BenchDb> {
  const name = `bench_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {}, connect_timeout: 5 });
  try {
    await admin.unsafe(`create database ${name}`);
  } catch (error) {
    throw new Error(
      `Cannot create a database on ${redactUrl(adminUrl)} (${String(error)}). Set TEST_DATABASE_URL or DATABASE_URL to a server where you may create databases.`,
    );
  } finally {
    await admin.end();
  }
  const target = new URL(adminUrl);
  target.pathname = `/${name}`;
  return {
    url: target.toString(),
    name,
    drop: async () => {
      const sql = postgres(adminUrl, { max: 1, onnotice: () => {} });
      await sql.unsafe(`drop database if exists ${name} with (force)`).catch(() => {});
      await sql.end();
    },
  };
}

export async function seed(url: string, ownerId: string, projects: number): Promise<void> {
  const sql = postgres(url, { max: 2, onnotice: () => {} }) as unknown as Sql;
  try {
    await migrate(sql);
    const owners = [ownerId, ...Array.from({ length: 9 }, (_, i) => `bench-other-${i}`)];
    for (const id of owners) {
      await sql`insert into users (id, email, display_name) values (${id}, ${`${id}@example.com`}, ${id})`;
      await sql`
        insert into projects (id, owner_id, name, description, updated_at)
        select gen_random_uuid(), ${id}, 'Project ' || n, 'A bench project number ' || n, now() - n * interval '1 minute'
        from generate_series(1, ${projects}) as n`;
    }
    await sql`analyze`;
  } finally {
    await sql.end();
  }
}
