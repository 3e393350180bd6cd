/**
 * Attack / fault replayed: SIGTERM sent to the whole process group (systemd's default, Ctrl-C in a
 * terminal) of `bun run start`. The signal reaches the server itself and, forwarded by `bun run`, a second
 * time; before the fix the second copy was taken as "exit now" and the running answer was left 'running'.
 * Safe outcome: one graceful shutdown: the stream ends with `done`/stopped, the answer is saved as
 * 'stopped', and the process exits 0.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import postgres from "postgres";
import { SHUTDOWN_NOTE } from "../api/src/agent/runs";
import { startEmbeddedPostgres } from "../api/src/db/embedded";
import { processUser, scratchDatabase, startAppProcess } from "../api/src/test/app-process";
import { startFakeModelServer, turn, type FakeModelServer } from "../api/src/test/fake-model-server";
import { readSse } from "../api/src/test/sse-reader";

let model: FakeModelServer;
let db: Awaited<ReturnType<typeof scratchDatabase>>;
beforeAll(async () => {
  model = await startFakeModelServer();
  db = await scratchDatabase();
});
afterAll(async () => {
  await model.close();
  await db?.drop();
});

describe("one shutdown however many times the signal arrives", () => {
  for (const copies of [1, 3]) {
    test(`process-group SIGTERM ×${copies} mid-stream through \`bun run start\`: the answer is saved as stopped, exit 0`, async () => {
      model.respondWith(() => turn.steps({ text: "First part." }, ...Array.from({ length: 50 }, () => [{ delayMs: 200 }, { text: " more" }]).flat()));
      const app = await startAppProcess(
        { OPENAI_BASE_URL: model.baseUrl, OPENAI_API_KEY: "test-key", OPENAI_MODEL: "fake-model", ...(db ? { DATABASE_URL: db.url } : {}) },
        { viaBunRun: true, ownGroup: true },
      );
      let exitCode: number | null = null;
      try {
        const alice = processUser("alice");
        const json = { ...alice.auth, "content-type": "application/json" };
        const project = await (
          await fetch(`${app.url}/api/projects`, { method: "POST", headers: json, body: JSON.stringify({ name: "Group signal" }) })
        ).json();
        const res = await fetch(`${app.url}/api/messages/stream`, {
          method: "POST",
          headers: json,
          body: JSON.stringify({ projectId: project.id, content: "Build it" }),
        });
        expect(res.status).toBe(200);
        const stream = readSse(res);
        await stream.next((_, text) => text.includes("First part."));

        for (let i = 0; i < copies; i++) app.killGroup("SIGTERM");
        expect(await stream.next((e) => e.type === "done", 8_000)).toMatchObject({ type: "done", status: "stopped" });
        exitCode = await Promise.race([app.exited, Bun.sleep(10_000).then(() => null)]);
        expect(exitCode).toBe(0);
        expect(app.lines.some((l) => l.includes("exiting now"))).toBe(false);

        const rows = await readMessages(app.dataDir, project.id);
        expect(rows.map((r) => [r.role, r.status])).toEqual([
          ["user", "complete"],
          ["assistant", "stopped"],
        ]);
        expect(rows[1]!.content).toEndWith(SHUTDOWN_NOTE);
      } finally {
        if (exitCode === null) {
          console.log(app.lines.slice(-30).join("\n"));
          try {
            app.killGroup("SIGKILL");
          } catch {
            // the group is already gone
          }
        }
        await app.exited;
        model.reset();
      }
    }, 60_000);
  }
});

async function readMessages(dataDir: string, projectId: string) {
  type Row = { role: string; status: string; content: string };
  const query = (sql: postgres.Sql) => sql<Row[]>`select role, status, content from messages where project_id = ${projectId} order by created_at`;
  if (db) {
    const sql = postgres(db.url, { max: 1, onnotice: () => {} });
    try {
      return await query(sql);
    } finally {
      await sql.end();
    }
  }
  const embedded = await startEmbeddedPostgres({ dataDir: join(dataDir, "pg"), maxConnections: 2 });
  const sql = postgres({ path: embedded.socketPath, database: "postgres", username: "postgres", max: 1, onnotice: () => {} });
  try {
    return await query(sql);
  } finally {
    await sql.end();
    await embedded.stop();
  }
}
