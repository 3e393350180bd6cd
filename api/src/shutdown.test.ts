/**
 * SIGTERM during a chat stream, on the real app started as `bun run start` starts it: the process stops
 * the running answer, saves it, ends the stream with `done`, closes the WebSocket and the database, and
 * exits 0 within seconds. Reopening the same database (TEST_DATABASE_URL's, or the embedded one in
 * DATA_DIR) finds the question and the partial answer saved as 'stopped'. And SIGTERM with local sandboxes
 * running: their disk volumes are unmounted while other requests still drain, so a kill that cuts the
 * drain short leaves nothing mounted.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import postgres from "postgres";
import { WS_PROTOCOL } from "@shared/events/project-events";
import { SHUTDOWN_NOTE } from "./agent/runs";
import { startEmbeddedPostgres } from "./db/embedded";
import { processUser, scratchDatabase, startAppProcess, unusedPort } from "./test/app-process";
import { startFakeModelServer, turn, type FakeModelServer } from "./test/fake-model-server";
import { localSuiteGate, mountsUnder } from "./test/local-sandbox-support";
import { waitFor } from "./test/sandbox-contract";
import { readSse } from "./test/sse-reader";

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

describe("graceful shutdown", () => {
  test("SIGTERM mid-stream: the answer so far is saved as stopped, the stream ends with done, exit 0", async () => {
    // A slow answer: a first sentence, then a word every 200 ms for about 10 s.
    model.respondWith(() =>
      turn.steps({ text: "First part of the answer." }, ...Array.from({ length: 50 }, () => [{ delayMs: 200 }, { text: " more" }]).flat()),
    );
    const metricsPort = unusedPort();
    const app = await startAppProcess({
      OPENAI_BASE_URL: model.baseUrl,
      OPENAI_API_KEY: "test-key",
      OPENAI_MODEL: "fake-model",
      METRICS_PORT: String(metricsPort),
      ...(db ? { DATABASE_URL: db.url } : {}),
    });
    let exitCode: number | null = null;
    try {
      const alice = processUser("alice");
      const json = { ...alice.auth, "content-type": "application/json" };
      const project = await (await fetch(`${app.url}/api/projects`, { method: "POST", headers: json, body: JSON.stringify({ name: "Shutdown" }) })).json();

      const ws = new WebSocket(`${app.url.replace("http", "ws")}/api/ws`, [WS_PROTOCOL, alice.token]);
      const wsClosed = new Promise<number>((resolve) => (ws.onclose = (e) => resolve(e.code)));
      await new Promise((resolve, reject) => ((ws.onopen = resolve), (ws.onerror = reject)));

      const res = await fetch(`${app.url}/api/messages/stream`, {
        method: "POST",
        headers: json,
        body: JSON.stringify({ projectId: project.id, content: "Build it" }),
      });
      expect(res.status).toBe(200);
      const stream = readSse(res);
      await stream.next((_, text) => text.includes("First part of the answer."));

      // The real process's metrics (on METRICS_PORT, never the public port) see the run and the socket.
      expect((await fetch(`${app.url}/metrics`)).status).toBe(404);
      const metrics = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
      expect(metrics).toContain("app_agent_runs_active 1\n");
      expect(metrics).toContain("app_websocket_clients 1\n");

      const signalled = Date.now();
      app.kill("SIGTERM");
      const done = await stream.next((e) => e.type === "done", 8_000);
      expect(done).toMatchObject({ type: "done", status: "stopped" });
      await stream.ended;
      expect(await wsClosed).toBe(1001);
      exitCode = await Promise.race([app.exited, Bun.sleep(8_000).then(() => null)]);
      expect(exitCode).toBe(0);
      expect(Date.now() - signalled).toBeLessThan(8_000);
      // Stopped well before the model would have finished: the answer is partial.
      expect(stream.events.filter((e) => e.type === "chunk").length).toBeLessThan(40);
      expect(app.lines.some((l) => l.includes('"msg":"shut down"'))).toBe(true);

      // Reopen the same database: both messages are there, and nothing is left 'running'.
      const rows = await readMessages(app.dataDir, project.id);
      expect(rows.map((r) => [r.role, r.status])).toEqual([
        ["user", "complete"],
        ["assistant", "stopped"],
      ]);
      expect(rows[0]!.content).toBe("Build it");
      expect(rows[1]!.content).toStartWith("First part of the answer.");
      expect(rows[1]!.content).toEndWith(SHUTDOWN_NOTE);
    } finally {
      if (exitCode === null) app.kill("SIGKILL");
      await app.exited;
      model.reset();
    }
  }, 60_000);
});

if (await localSuiteGate("shutdown with sandboxes", { sameOnEveryDatabase: true })) {
  describe("graceful shutdown with local sandboxes", () => {
    test("SIGTERM: the sandboxes' volumes are unmounted while a request still drains, then the process exits 0", async () => {
      const app = await startAppProcess({ SANDBOX_WARM_TEMPLATES: "none", ...(db ? { DATABASE_URL: db.url } : {}) });
      let exitCode: number | null = null;
      let held: Awaited<ReturnType<typeof Bun.connect>> | null = null;
      try {
        const alice = processUser("alice");
        const json = { ...alice.auth, "content-type": "application/json" };
        const project = await (await fetch(`${app.url}/api/projects`, { method: "POST", headers: json, body: JSON.stringify({ name: "Volumes" }) })).json();
        // The first command starts the project's sandbox (and a spare after it), each on a volume of its own.
        const ran = await fetch(`${app.url}/api/sandbox/${project.id}/shell`, { method: "POST", headers: json, body: JSON.stringify({ command: "true" }) });
        expect(ran.status).toBe(200);
        await waitFor("the sandbox's and the spare's volumes", async () => mountsUnder(app.dataDir).length === 2, 30_000);

        // A request whose body never ends: the drain waits its full 5 s for it, long after the sandboxes are gone.
        held = await Bun.connect({ hostname: "127.0.0.1", port: app.port, socket: { data() {} } });
        held.write(
          `POST /api/projects HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${alice.auth.authorization}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"na`,
        );
        await Bun.sleep(200);

        app.kill("SIGTERM");
        await waitFor("the volumes unmounted", async () => mountsUnder(app.dataDir).length === 0, 4_000);
        // Still draining: a kill from here on (docker stop's, a test harness's) would find nothing mounted.
        expect(app.proc.exitCode).toBeNull();
        exitCode = await Promise.race([app.exited, Bun.sleep(15_000).then(() => null)]);
        expect(exitCode).toBe(0);
        expect(app.lines.some((l) => l.includes('"msg":"requests still open at shutdown were cut"'))).toBe(true);
        expect(mountsUnder(app.dataDir)).toEqual([]);
      } finally {
        held?.end();
        if (exitCode === null) app.kill("SIGKILL");
        await app.exited;
        if (mountsUnder(app.dataDir).length === 0) rmSync(app.dataDir, { recursive: true, force: true });
      }
    }, 90_000);
  });
}

async function readMessages(dataDir: string, projectId: string) {
  type Row = { role: string; status: string; content: string };
  if (db) {
    const sql = postgres(db.url, { max: 1, onnotice: () => {} });
    try {
      return await sql<Row[]>`select role, status, content from messages where project_id = ${projectId} order by created_at`;
    } finally {
      await sql.end();
    }
  }
  const embedded = await startEmbeddedPostgres({ dataDir: join(dataDir, "pg"), maxConnections: 2 });
  const sql = postgres({ path: embedded.socketPath, database: "postgres", username: "postgres", max: 1, onnotice: () => {} });
  try {
    return await sql<Row[]>`select role, status, content from messages where project_id = ${projectId} order by created_at`;
  } finally {
    await sql.end();
    await embedded.stop();
  }
}
