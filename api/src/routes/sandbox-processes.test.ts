/**
 * /api/sandbox/{projectId}/processes through the real app: owner checks and bad input (no sandbox needed),
 * then, in a real local sandbox, a process started by one request and listed, restarted and stopped by later
 * ones (its whole tree gone), logs read on from a cursor, run-workflow restarting `app`, and live lines and
 * status changes reaching a WebSocket client of the project's owner (and not another user's).
 */
import { grantedAccess } from "../test/access";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { WS_PROTOCOL } from "@shared/events/project-events";
import { setWorkflowCommand } from "../db/project-workflow";
import { checkLocalSandboxSupport } from "../sandbox/local/check";
import { appServer } from "../test/app-server";
import { listensInside } from "../test/process-contract";
import { waitFor } from "../test/sandbox-contract";
import { testApp, type TestUser } from "../test/test-app";

const support = await checkLocalSandboxSupport();
let t: Awaited<ReturnType<typeof testApp>>;
beforeAll(async () => {
  t = await testApp();
}, 60_000);
afterAll(async () => {
  await t?.deps.sandboxes.shutdown();
}, 30_000);

const newProject = async (user: TestUser, name = "Procs") => (await (await user.request("POST", "/api/projects", { name })).json()) as { id: string };
const json = async (res: Response) => ({ status: res.status, body: (await res.json()) as any });

describe("process routes without a sandbox", () => {
  test("another user's project (and a missing one) is 404 on every process route", async () => {
    const alice = t.user("alice");
    const bob = t.user("bob");
    const p = await newProject(alice);
    const base = `/api/sandbox/${p.id}/processes`;
    const calls: [string, string, unknown?][] = [
      ["GET", base],
      ["POST", base, { name: "web", command: "sleep 1" }],
      ["POST", `${base}/app/restart`],
      ["POST", `${base}/app/stop`],
      ["GET", `${base}/app/logs`],
    ];
    for (const [method, path, body] of calls) {
      const res = await json(await bob.request(method, path, body));
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: "Project not found", code: "not_found" });
      expect((await alice.request(method, path.replace(p.id, crypto.randomUUID()), body)).status).toBe(404);
    }
    const unauthenticated = await t.app.request(base);
    expect(unauthenticated.status).toBe(401);
  });

  test("bad input is 400: a command over 400 characters, an empty one, a bad name, a bad cursor", async () => {
    const alice = t.user("alice");
    const p = await newProject(alice);
    const base = `/api/sandbox/${p.id}/processes`;
    const long = await json(await alice.request("POST", base, { name: "web", command: "x".repeat(401) }));
    expect(long.status).toBe(400);
    expect(long.body.error).toContain("at most 400 characters");
    expect((await alice.request("POST", base, { name: "web", command: "   " })).status).toBe(400);
    expect((await alice.request("POST", base, { name: "../etc", command: "sleep 1" })).status).toBe(400);
    expect((await alice.request("POST", base, { command: "sleep 1" })).status).toBe(400);
    expect((await alice.request("GET", `${base}/app/logs?since=-3`)).status).toBe(400);
  });
});

describe.skipIf(!support.ok)("process routes in a real local sandbox", () => {
  test("a process started by one request is listed with its port, restarted and stopped by later ones", async () => {
    const alice = t.user("alice");
    const p = await newProject(alice);
    const base = `/api/sandbox/${p.id}/processes`;
    const command = `python3 -c "import http.server;http.server.HTTPServer(('0.0.0.0',8124),http.server.SimpleHTTPRequestHandler).serve_forever()" & sleep 1000`;
    const started = await json(await alice.request("POST", base, { name: "web", command }));
    expect(started.status).toBe(200);
    expect(started.body).toMatchObject({ name: "web", command, status: "starting", restarts: 0 });

    const listed = await waitFor("the port in the list", async () => {
      const list = (await json(await alice.request("GET", base))).body as any[];
      const web = list.find((x) => x.name === "web");
      return web?.status === "running" && web.ports.includes(8124) ? web : null;
    });
    expect(Object.keys(listed).sort()).toEqual(["command", "exitCode", "name", "ports", "restarts", "startedAt", "status"]);

    const restarted = await json(await alice.request("POST", `${base}/web/restart`));
    expect(restarted.body).toMatchObject({ name: "web", restarts: 1 });
    await waitFor("the port after restart", async () =>
      ((await json(await alice.request("GET", base))).body as any[]).find((x) => x.name === "web")?.ports.includes(8124),
    );

    const stopped = await json(await alice.request("POST", `${base}/web/stop`));
    expect(stopped.body).toMatchObject({ name: "web", status: "exited", ports: [] });
    const sandbox = await t.deps.sandboxes.ensure(grantedAccess(alice.uid, p.id));
    expect(await listensInside(sandbox, 8124)).toBe(false);

    expect((await alice.request("POST", `${base}/nope/restart`)).status).toBe(404);
    expect((await alice.request("POST", `${base}/nope/stop`)).status).toBe(404);
    const unknown = await json(await alice.request("GET", `${base}/nope/logs`));
    expect(unknown).toEqual({ status: 404, body: { error: "Process not found", code: "not_found" } });
  }, 60_000);

  test("logs are read on from a cursor; a ninth process is 409 (replacing a name is not one)", async () => {
    const alice = t.user("alice");
    const p = await newProject(alice);
    const base = `/api/sandbox/${p.id}/processes`;
    await alice.request("POST", base, { name: "count", command: "for i in 1 2 3; do echo line $i; done; echo oops >&2" });
    const first = await waitFor("the lines", async () => {
      const logs = (await json(await alice.request("GET", `${base}/count/logs`))).body;
      return logs.lines.length === 4 ? logs : null;
    });
    expect(first.lines.map((l: any) => [l.stream, l.text])).toEqual([
      ["stdout", "line 1"],
      ["stdout", "line 2"],
      ["stdout", "line 3"],
      ["stderr", "oops"],
    ]);
    expect(typeof first.cursor).toBe("number");
    expect((await json(await alice.request("GET", `${base}/count/logs?since=${first.cursor}`))).body).toEqual({ lines: [], cursor: first.cursor });

    for (let i = 1; i < 8; i++) expect((await alice.request("POST", base, { name: `idle${i}`, command: "sleep 1000" })).status).toBe(200);
    const ninth = await json(await alice.request("POST", base, { name: "ninth", command: "sleep 1000" }));
    expect(ninth.status).toBe(409);
    expect(ninth.body.code).toBe("conflict");
    // Replacing a name is not a ninth process.
    expect((await alice.request("POST", base, { name: "idle1", command: "sleep 999" })).status).toBe(200);
  }, 60_000);

  test("run-workflow starts app with the configured command and starts it again on later calls", async () => {
    const alice = t.user("alice");
    const p = await newProject(alice);
    const base = `/api/sandbox/${p.id}/processes`;
    await setWorkflowCommand(t.db.sql, p.id, "echo app-up; sleep 1000");
    expect((await json(await alice.request("POST", `/api/sandbox/${p.id}/run-workflow`))).body).toEqual({
      ok: true,
      workflowCommand: "echo app-up; sleep 1000",
    });
    const app = await waitFor(
      "app running",
      async () => ((await json(await alice.request("GET", base))).body as any[]).find((x) => x.name === "app" && x.status === "running"),
      15_000,
    );
    expect(app.command).toBe("echo app-up; sleep 1000");
    await setWorkflowCommand(t.db.sql, p.id, "echo app-v2; sleep 1000");
    await alice.request("POST", `/api/sandbox/${p.id}/run-workflow`);
    const list = (await json(await alice.request("GET", base))).body as any[];
    expect(list.filter((x) => x.name === "app").map((x) => x.command)).toEqual(["echo app-v2; sleep 1000"]);
    const logs = await waitFor("the new app's line", async () => {
      const body = (await json(await alice.request("GET", `${base}/app/logs`))).body;
      return body.lines.some((l: any) => l.text === "app-v2") ? body : null;
    });
    // The first app was stopped (bash reports its sleep "Terminated"), not left running beside the second.
    expect(logs.lines.map((l: any) => l.text).filter((text: string) => text.startsWith("app-"))).toEqual(["app-up", "app-v2"]);
  }, 60_000);

  test("live output and status changes reach the owner's WebSocket, not another user's", async () => {
    const server = appServer(t);
    try {
      const alice = t.user("alice");
      const bob = t.user("bob");
      const p = await newProject(alice);
      const socket = async (user: TestUser) => {
        const ws = new WebSocket(`${server.ws}/api/ws`, [WS_PROTOCOL, user.token]);
        const messages: any[] = [];
        ws.onmessage = (e) => messages.push(JSON.parse(String(e.data)));
        await new Promise((resolve, reject) => ((ws.onopen = resolve), (ws.onerror = reject)));
        ws.send(JSON.stringify({ type: "subscribe", projectId: p.id }));
        return { ws, messages };
      };
      const a = await socket(alice);
      const b = await socket(bob);
      await waitFor("subscribed", async () => a.messages.some((m) => m.type === "subscribed"));
      await waitFor("bob refused", async () => b.messages.some((m) => m.type === "error"));

      await alice.request("POST", `/api/sandbox/${p.id}/processes`, { name: "talk", command: "for i in $(seq 1 50); do echo msg $i; done; sleep 1000" });
      const lines = await waitFor("all 50 lines over the socket", async () => {
        const got = a.messages.filter((m) => m.type === "process.output" && m.name === "talk").flatMap((m) => m.lines);
        return got.length >= 50 ? got : null;
      });
      expect(lines.map((l: any) => l.text)).toEqual(Array.from({ length: 50 }, (_, i) => `msg ${i + 1}`));
      expect(lines.every((l: any) => l.stream === "stdout" && !Number.isNaN(Date.parse(l.t)))).toBe(true);
      const output = a.messages.find((m) => m.type === "process.output");
      expect(Object.keys(output).sort()).toEqual(["lines", "name", "projectId", "type"]);
      expect(output.projectId).toBe(p.id);

      await waitFor("a running status", async () =>
        a.messages.some((m) => m.type === "process.status" && m.process.name === "talk" && m.process.status === "running"),
      );
      await alice.request("POST", `/api/sandbox/${p.id}/processes/talk/stop`);
      const exited = await waitFor("an exited status", async () => a.messages.find((m) => m.type === "process.status" && m.process.status === "exited"));
      expect(exited).toMatchObject({ type: "process.status", projectId: p.id, process: { name: "talk", status: "exited", ports: [], restarts: 0 } });
      expect(b.messages.some((m) => String(m.type).startsWith("process."))).toBe(false);
      a.ws.close();
      b.ws.close();
    } finally {
      server.stop();
    }
  }, 60_000);
});
