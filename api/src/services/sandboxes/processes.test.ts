/**
 * The processes service in real local sandboxes: `app` comes back from the stored workflow command after
 * the sandbox stops (expiry, idle) and after a recreate, the preview follows the port `app` really listens
 * on, and the agent-facing calls (appStatus, logTail, restart) answer for the run's access.
 */
import { grantedAccess } from "../../test/access";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { setWorkflowCommand } from "../../db/project-workflow";
import { checkLocalSandboxSupport } from "../../sandbox/local/check";
import { waitFor } from "../../test/sandbox-contract";
import { testApp } from "../../test/test-app";

const support = await checkLocalSandboxSupport();
let t: Awaited<ReturnType<typeof testApp>>;
beforeAll(async () => {
  t = await testApp();
}, 60_000);
afterAll(async () => {
  await t?.deps.sandboxes.shutdown();
}, 30_000);

const server = (port: number, word: string) =>
  `echo ${word}; exec python3 -c "import http.server;http.server.HTTPServer(('0.0.0.0',${port}),http.server.SimpleHTTPRequestHandler).serve_forever()"`;

describe.skipIf(!support.ok)("the app process", () => {
  test("the preview follows the first of app's ports that answers HTTP, not a lower one that never answers", async () => {
    const alice = t.user("alice");
    const p = (await (await alice.request("POST", "/api/projects", { name: "Two ports" })).json()) as { id: string };
    const { sandboxes } = t.deps;
    // A raw TCP listener that accepts nothing (as an HMR or debugger socket may), opened first and on the
    // lower port, then the HTTP server.
    const twoPorts =
      `exec python3 -c "import socket,time,http.server;s=socket.socket();s.bind(('0.0.0.0',8140));s.listen();time.sleep(1.5);` +
      `http.server.HTTPServer(('0.0.0.0',8141),http.server.SimpleHTTPRequestHandler).serve_forever()"`;
    await setWorkflowCommand(t.db.sql, p.id, twoPorts);
    await sandboxes.runWorkflow(grantedAccess(alice.uid, p.id));
    const both = await waitFor(
      "both ports",
      async () => {
        const s = await sandboxes.processes.appStatus(grantedAccess(alice.uid, p.id));
        return s.ports.length === 2 ? s : null;
      },
      15_000,
    );
    expect(both.ports).toEqual([8140, 8141]);
    const sandbox = await sandboxes.ensure(grantedAccess(alice.uid, p.id));
    await waitFor(
      "the preview URL on 8141",
      async () => (await sandboxes.url(grantedAccess(alice.uid, p.id)))?.startsWith(`http://8141-${sandbox.id}.`),
      15_000,
    );
  }, 60_000);

  test("app is started again from the workflow command after its sandbox stopped and after a recreate; the preview follows its port", async () => {
    const alice = t.user("alice");
    const p = (await (await alice.request("POST", "/api/projects", { name: "App" })).json()) as { id: string };
    const { sandboxes } = t.deps;
    await setWorkflowCommand(t.db.sql, p.id, server(8131, "first"));
    await sandboxes.runWorkflow(grantedAccess(alice.uid, p.id));
    const running = await waitFor(
      "app on its port",
      async () => {
        const s = await sandboxes.processes.appStatus(grantedAccess(alice.uid, p.id));
        return s.status === "running" && s.ports.length ? s : null;
      },
      15_000,
    );
    expect(running.ports).toEqual([8131]);
    // The preview URL names the port app listens on, not the default 5173.
    const first = await waitFor("the preview URL on 8131", async () => {
      const url = await sandboxes.url(grantedAccess(alice.uid, p.id));
      return url?.startsWith("http://8131-") ? url : null;
    });

    // The sandbox stops (as at idle or expiry): the next use gets a new one running app again.
    const old = await sandboxes.ensure(grantedAccess(alice.uid, p.id));
    await old.kill();
    const fresh = await sandboxes.ensure(grantedAccess(alice.uid, p.id));
    expect(fresh.id).not.toBe(old.id);
    await waitFor("app back in the new sandbox", async () => (await fresh.processes.list()).find((x) => x.name === "app" && x.ports.includes(8131)), 20_000);
    const second = await sandboxes.url(grantedAccess(alice.uid, p.id));
    expect(second).not.toBe(first);
    expect(second).toContain(`8131-${fresh.id}.`);

    // A recreate starts app too, and a changed port moves the preview with it.
    await setWorkflowCommand(t.db.sql, p.id, server(8132, "second"));
    const recreated = await sandboxes.recreate(grantedAccess(alice.uid, p.id));
    expect(recreated.workflowCommand).toContain("8132");
    const third = await sandboxes.ensure(grantedAccess(alice.uid, p.id));
    await waitFor("the preview URL on 8132", async () => (await sandboxes.url(grantedAccess(alice.uid, p.id)))?.startsWith(`http://8132-${third.id}.`));

    // The agent's calls: no owner id, the project's own sandbox.
    expect(await sandboxes.processes.logTail(grantedAccess(alice.uid, p.id), "app", 1000)).toContain("second");
    expect(await sandboxes.processes.logTail(grantedAccess(alice.uid, p.id), "app", 3)).toBe("ond");
    expect(await sandboxes.processes.logTail(grantedAccess(alice.uid, p.id), "nope", 1000)).toBe("");
    const restarted = await sandboxes.processes.restart(grantedAccess(alice.uid, p.id), "app");
    expect(restarted).toMatchObject({ name: "app", restarts: 1 });
    expect(await sandboxes.processes.restart(grantedAccess(alice.uid, p.id), "nope")).toBeNull();
    await waitFor("app running after the restart", async () => (await sandboxes.processes.appStatus(grantedAccess(alice.uid, p.id))).ports.includes(8132));
  }, 90_000);
});
