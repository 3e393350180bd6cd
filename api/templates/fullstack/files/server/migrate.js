// Applies db/migrations/*.sql in name order, each once, recording them in _migrations.
// Run on start in development (server/index.js) or by hand with `npm run migrate`.
import { readdir, readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { sql } from "./db.js";

const dir = fileURLToPath(new URL("../db/migrations/", import.meta.url));

export async function migrate() {
  const files = (await readdir(dir).catch(() => [])).filter((f) => f.endsWith(".sql")).sort();
  const applied = [];
  await sql.begin(async (tx) => {
    // One runner at a time: a restart while another start is still migrating waits here.
    await tx`SELECT pg_advisory_xact_lock(8354021)`;
    await tx`CREATE TABLE IF NOT EXISTS _migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`;
    const done = new Set((await tx`SELECT name FROM _migrations`).map((r) => r.name));
    for (const file of files) {
      if (done.has(file)) continue;
      try {
        await tx.unsafe(await readFile(dir + file, "utf8")).simple();
      } catch (error) {
        throw new Error(`Migration ${file} failed: ${error.message}`);
      }
      await tx`INSERT INTO _migrations (name) VALUES (${file})`;
      applied.push(file);
    }
  });
  return applied;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const applied = await migrate();
  console.log(applied.length ? `Applied: ${applied.join(", ")}` : "Migrations are up to date");
  await sql.end();
}
