/**
 * The drain on SIGTERM (shutdown.ts), in-process on the real HTTP server: /api/ready answers 503 at once, a new
 * run, sandbox or publish build is refused with a 503 that says why, a publish build already running finishes
 * before the server stops listening, and one that outlives DRAIN_TIMEOUT_S is cut at that deadline.
 * The whole process on SIGTERM: shutdown.test.ts.
 */
import { describe, expect, test } from "bun:test";
import type { Server } from "bun";
import type { Logger } from "./lib/logger";
import { shutdownGracefully } from "./shutdown";
import { appServer } from "./test/app-server";
import { testApp } from "./test/test-app";

async function drainingServer(env: Record<string, string> = {}) {
  const warnings: string[] = [];
  const logger: Logger = { debug() {}, info() {}, error() {}, warn: (msg) => void warnings.push(msg) };
  const t = await testApp({ env, logger });
  const { server, hub, origin } = appServer(t);
  let closed = false;
  const shutdown = (builds: () => Promise<unknown>) =>
    shutdownGracefully({
      server: server as Server<unknown>,
      parts: { runs: t.deps.runs, hub, deps: t.deps, close: async () => void (closed = true) },
      logger,
      builds,
      drainMs: 500,
    });
  return { t, origin, warnings, shutdown, closed: () => closed };
}

describe("SIGTERM drains", () => {
  test("ready answers 503 at once; new runs, sandboxes and publishes are refused; a running build finishes first", async () => {
    const s = await drainingServer();
    const alice = s.t.user("alice");
    const project = await (await alice.request("POST", "/api/projects", { name: "Drain" })).json();
    expect((await fetch(`${s.origin}/api/ready`)).status).toBe(200);

    let finishBuild!: () => void;
    const build = new Promise<void>((resolve) => (finishBuild = resolve));
    const started = Date.now();
    const done = s.shutdown(() => build);
    // Still listening while the build runs: the load balancer reads 503, and other requests are answered.
    const ready = await fetch(`${s.origin}/api/ready`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({ status: "draining" });
    expect((await fetch(`${s.origin}/api/health`)).status).toBe(200);

    const headers = { authorization: `Bearer ${alice.token}`, "content-type": "application/json" };
    const post = (path: string, body: unknown) => fetch(`${s.origin}${path}`, { method: "POST", headers, body: JSON.stringify(body) });
    const run = await post("/api/messages/stream", { projectId: project.id, content: "Build it" });
    expect(run.status).toBe(503);
    expect(run.headers.get("retry-after")).toBe("2");
    expect(await run.json()).toEqual({ code: "shutting_down", error: "This server is shutting down and starts no new AI answers; try again in a moment." });
    const publish = await post(`/api/projects/${project.id}/publish`, {});
    expect(publish.status).toBe(503);
    expect((await publish.json()).error).toBe("This server is shutting down and starts no new publish builds; try again in a moment.");
    const shell = await post(`/api/sandbox/${project.id}/shell`, { command: "true" });
    expect(shell.status).toBe(503);
    expect((await shell.json()).error).toBe("This server is shutting down and starts no new sandboxes; try again in a moment.");
    // Nothing was started: no assistant message, no deployment.
    expect((await (await alice.request("GET", `/api/messages/${project.id}`)).json()).length).toBe(0);
    expect((await s.t.db.sql`select id from deployments where project_id = ${project.id}`).length).toBe(0);

    await Bun.sleep(300);
    expect(s.closed()).toBe(false); // held by the build
    finishBuild();
    await done;
    expect(s.closed()).toBe(true);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(s.warnings).not.toContain("publish builds still running after DRAIN_TIMEOUT_S are cut");
    await fetch(`${s.origin}/api/health`).then(
      () => expect.unreachable("the server still listens"),
      () => {},
    );
  }, 120_000);

  test("a build that outlives DRAIN_TIMEOUT_S is cut at that deadline, not waited for", async () => {
    const s = await drainingServer({ DRAIN_TIMEOUT_S: "1" });
    const started = Date.now();
    await s.shutdown(() => new Promise(() => {}));
    const took = Date.now() - started;
    expect(took).toBeGreaterThanOrEqual(1_000);
    expect(took).toBeLessThan(6_000);
    expect(s.warnings).toContain("publish builds still running after DRAIN_TIMEOUT_S are cut");
    expect(s.closed()).toBe(true);
  }, 120_000);
});
