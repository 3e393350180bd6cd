/**
 * Bench subprocess: the baseline. A bare Hono route running the same SQL as `GET /api/projects` for a fixed
 * owner, with no sign-in, no user ensure and no row mapping, over a postgres.js pool of the app's default size.
 * Prints one JSON line `{"port": N}` on stdout when it is listening.
 *
 * Usage: bun bench/servers/serve-baseline.ts '{"databaseUrl":"postgres://…","ownerId":"…","poolMax":10}'
 */
import { Hono } from "hono";
import postgres from "postgres";

const { databaseUrl, ownerId, poolMax } = JSON.parse(process.argv[2] ?? "{}") as { databaseUrl: string; ownerId: string; poolMax: number };

const sql = postgres(databaseUrl, { max: poolMax, onnotice: () => {}, connect_timeout: 5, transform: { undefined: null } });

const app = new Hono().get("/api/projects", async (c) =>
  c.json(
    await sql`
      select id, name, description, sandbox_id as "sandboxId", sandbox_url as "sandboxUrl",
        workflow_command as "workflowCommand", created_at as "createdAt", updated_at as "updatedAt"
      from projects where owner_id = ${ownerId} order by updated_at desc, id`,
  ),
);

const server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: app.fetch, idleTimeout: 255 });
console.log(JSON.stringify({ port: server.port }));

process.on("SIGTERM", async () => {
  await server.stop(true);
  await sql.end({ timeout: 5 });
  process.exit(0);
});
