/**
 * Attack replayed: "one user starts sandboxes for many projects to exhaust the host" (no cap on sandboxes per
 * user). Against the running app (a real `bun api/src/index.ts` with local sandboxes) with
 * MAX_SANDBOXES_PER_USER=2, a user opens project after project, each starting its sandbox, then keeps her
 * sandboxes busy writing AI answers and asks for one more, through a route and through a chat run.
 * Safe outcome: she never has more than 2 sandboxes on the host: each start past the cap stops her least
 * recently used idle one (another user's are untouched); with both busy, one more is refused with a 429
 * that names them and says what to do, and a chat run that needs a sandbox ends with that message; when an
 * answer is stopped, its sandbox makes room again. (The cap across several instances, and starts racing
 * for the last slot, are shown in api/src/services/sandboxes/slots.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import fs from "node:fs";
import path from "node:path";
import { processUser, startAppProcess, type AppProcess } from "../api/src/test/app-process";
import { startFakeModelServer, turn, type FakeModelServer } from "../api/src/test/fake-model-server";
import { localSuiteGate } from "../api/src/test/local-sandbox-support";
import { readSse } from "../api/src/test/sse-reader";

const MAX = 2;

if (await localSuiteGate("sandbox cap security")) {
  describe("one user cannot run more than MAX_SANDBOXES_PER_USER sandboxes", () => {
    let app: AppProcess;
    let model: FakeModelServer;
    beforeAll(async () => {
      model = await startFakeModelServer();
      // "keep busy": an answer that goes on until it is stopped; anything else: a command in the sandbox.
      model.respondWith((req) => {
        const last = req.messages.filter((m) => m.role === "user").at(-1);
        return String(last?.content ?? "").includes("keep busy")
          ? turn.steps({ text: "Working on it" }, { hang: true })
          : turn.toolCalls([{ name: "run_shell", arguments: { command: "echo from the agent" } }]);
      });
      app = await startAppProcess(
        {
          SANDBOX_WARM_TEMPLATES: "none",
          LOG_LEVEL: "info",
          MAX_SANDBOXES_PER_USER: String(MAX),
          AGENT_REPAIR_ROUNDS: "0",
          OPENAI_BASE_URL: model.baseUrl,
          OPENAI_API_KEY: "test-key",
          OPENAI_MODEL: "fake-model",
        },
        { startMs: 90_000 },
      );
    }, 120_000);
    afterAll(async () => {
      app?.kill("SIGTERM");
      await app?.exited;
      await model?.close();
    }, 30_000);

    const as = (user: ReturnType<typeof processUser>) => (method: string, route: string, body?: unknown) =>
      fetch(`${app.url}${route}`, {
        method,
        headers: { ...user.auth, ...(body !== undefined ? { "content-type": "application/json" } : {}) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    /** Sandboxes started for these projects that are still on the host (a stopped one's folder is removed). */
    const running = (projectIds: string[]) =>
      app.lines
        .filter((l) => l.includes('"sandbox started"') && projectIds.some((id) => l.includes(id)))
        .map((l) => JSON.parse(l) as { sandboxId: string; projectId: string })
        .filter((s) => fs.existsSync(path.join(app.dataDir, "sandboxes", s.sandboxId)));

    const mallory = processUser("mallory");
    const projects: string[] = [];

    test("opening project after project: each start past the cap stops her least recently used sandbox, never another user's", async () => {
      const call = as(mallory);
      for (let i = 1; i <= 5; i++) {
        const { id } = (await (await call("POST", "/api/projects", { name: `P${i}` })).json()) as { id: string };
        projects.push(id);
        const res = await call("POST", `/api/sandbox/${id}/shell`, { command: `echo sandbox ${i}` });
        expect(res.status).toBe(200);
        expect(((await res.json()) as { stdout: string }).stdout).toBe(`sandbox ${i}\n`);
        expect(running(projects).length).toBeLessThanOrEqual(MAX);
      }
      expect(
        running(projects)
          .map((s) => s.projectId)
          .sort(),
      ).toEqual([projects[3]!, projects[4]!].sort());

      // The cap is per user: another user's start stops none of hers.
      const alice = as(processUser("alice"));
      const { id: hers } = (await (await alice("POST", "/api/projects", { name: "Alice's" })).json()) as { id: string };
      expect((await alice("POST", `/api/sandbox/${hers}/shell`, { command: "true" })).status).toBe(200);
      expect(running(projects).length).toBe(MAX);
    }, 120_000);

    test("with both busy writing answers, one more is refused (429, naming them); a chat run needing one ends saying so; a stopped answer makes room", async () => {
      const call = as(mallory);
      const [p1, , , p4, p5] = projects;
      const busy = [];
      for (const id of [p4!, p5!]) {
        const stream = readSse(await call("POST", "/api/messages/stream", { projectId: id, content: "keep busy" }));
        await stream.next((_, text) => text.includes("Working on it"), 20_000);
        busy.push(stream);
      }
      const expected =
        `Your account may run ${MAX} sandboxes at once and all are busy: "P4" is writing an AI answer and "P5" is writing an AI answer. ` +
        "This project's sandbox can start when one of them finishes (or when you stop its answer); try again then.";

      const refused = await call("POST", `/api/sandbox/${p1}/shell`, { command: "echo one too many" });
      expect(refused.status).toBe(429);
      expect(refused.headers.get("retry-after")).toBe("30");
      expect(((await refused.json()) as { error: string }).error).toBe(expected);
      expect((await call("POST", `/api/sandbox/${p1}/recreate`)).status).toBe(429);

      const chat = readSse(await call("POST", "/api/messages/stream", { projectId: p1, content: "run the tests" }));
      expect(await chat.next((e) => e.type === "error", 30_000)).toEqual({ type: "error", message: expected });
      expect(await chat.next((e) => e.type === "done", 10_000)).toMatchObject({ type: "done", status: "failed" });
      expect(
        running(projects)
          .map((s) => s.projectId)
          .sort(),
      ).toEqual([p4!, p5!].sort());

      // P4's answer is stopped: its sandbox is idle, and the next start stops it to make room.
      expect((await call("POST", `/api/messages/${p4}/stop`)).status).toBe(200);
      await busy[0]!.next((e) => e.type === "done", 10_000);
      const res = await call("POST", `/api/sandbox/${p1}/shell`, { command: "echo room at last" });
      expect(res.status).toBe(200);
      expect(
        running(projects)
          .map((s) => s.projectId)
          .sort(),
      ).toEqual([p1!, p5!].sort());
      await call("POST", `/api/messages/${p5}/stop`);
    }, 120_000);
  });
}
