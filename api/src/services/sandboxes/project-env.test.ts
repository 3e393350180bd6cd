/**
 * The project environment seam: how contributors combine, and that every kind of process in a real local
 * sandbox (commands, run_shell, run_code, the shell route, named processes, terminals) starts with it, and
 * that a change restarts `app` with the new values.
 */
import { grantedAccess } from "../../test/access";
import { afterAll, describe, expect, test } from "bun:test";
import { APP_PROCESS } from "@shared/schemas/processes";
import { runCodeTool } from "../../agent/tools/run-code";
import { runShellTool } from "../../agent/tools/run-shell";
import { createMemoryBus } from "../../events/memory-bus";
import type { BusEvent } from "../../events/types";
import { silentLogger } from "../../lib/logger";
import { localSuiteGate } from "../../test/local-sandbox-support";
import { waitFor } from "../../test/sandbox-contract";
import { openTestTerminal } from "../../test/terminal-contract";
import { toolHarness } from "../../test/tool-harness";
import { createProjectEnv } from "./project-env";
import { runShellCommand } from "./shell";

describe("project environment", () => {
  test("contributors merge in the order registered; a broken one is left out, not fatal", async () => {
    const env = createProjectEnv({ events: createMemoryBus(), logger: silentLogger });
    env.register("first", async (projectId) => ({ A: "1", B: `for ${projectId}` }));
    env.register("broken", async () => {
      throw new Error("down");
    });
    env.register("second", async () => ({ B: "2" }));
    expect(await env.forProject("p1")).toEqual({ A: "1", B: "2" });
    env.register("first", async () => ({ A: "replaced" })); // same name: replaced, keeps its place
    expect(await env.forProject("p1")).toEqual({ A: "replaced", B: "2" });
  });

  test("a change is published on the bus for every instance", async () => {
    const events = createMemoryBus();
    const seen: BusEvent[] = [];
    events.subscribe((e) => seen.push(e));
    await createProjectEnv({ events, logger: silentLogger }).changed("u1", "p1", ["API_KEY"]);
    await waitFor("the event", async () => seen.length === 1);
    expect(seen[0]).toMatchObject({ type: "project.env.changed", projectId: "p1", ownerId: "u1", names: ["API_KEY"] });
  });
});

if (await localSuiteGate("project environment", { sameOnEveryDatabase: true })) {
  describe("project environment in a local sandbox", async () => {
    const h = await toolHarness();
    afterAll(() => h.close());
    const values = new Map<string, string>();
    h.t.deps.sandboxes.env.register("test", async (projectId) => ({ PROJECT_GREETING: values.get(projectId) ?? "none" }));
    const p = await h.project("Env");
    values.set(p.projectId, "hello-from-the-seam");
    const sandboxes = h.t.deps.sandboxes;

    test("commands, run_shell, run_code and the shell route see it", async () => {
      const sandbox = await sandboxes.ensure(grantedAccess(p.user.uid, p.projectId));
      expect((await sandbox.run('echo "$PROJECT_GREETING"')).stdout).toBe("hello-from-the-seam\n");
      // A caller's own env wins over the project's (a build's NODE_ENV), and adds to it.
      expect((await sandbox.run('echo "$PROJECT_GREETING $EXTRA"', { env: { EXTRA: "x" } })).stdout).toBe("hello-from-the-seam x\n");
      expect((await p.call(runShellTool, { command: 'echo "shell:$PROJECT_GREETING"' })).result).toContain("shell:hello-from-the-seam");
      expect((await p.call(runCodeTool, { language: "javascript", code: "console.log('code:' + process.env.PROJECT_GREETING)" })).result).toContain(
        "code:hello-from-the-seam",
      );
      const route = await runShellCommand(sandboxes, grantedAccess(p.user.uid, p.projectId), 'echo "route:$PROJECT_GREETING"');
      expect(route.stdout).toBe("route:hello-from-the-seam\n");
    }, 60_000);

    test("a terminal's shell sees it", async () => {
      const term = await openTestTerminal(await sandboxes.ensure(grantedAccess(p.user.uid, p.projectId)));
      term.type('echo "term:$PROJECT_GREETING"\r');
      await term.waitFor(/term:hello-from-the-seam\r\n/);
      term.session.close();
    }, 30_000);

    test("`app` starts with it, and a change restarts it with the new value", async () => {
      const command = 'echo "app:$PROJECT_GREETING"; sleep 1000';
      await sandboxes.processes.start(grantedAccess(p.user.uid, p.projectId), { name: APP_PROCESS, command });
      const logged = async () => (await sandboxes.processes.logs(grantedAccess(p.user.uid, p.projectId), APP_PROCESS)).lines.map((l) => l.text);
      await waitFor("app's first line", async () => (await logged()).includes("app:hello-from-the-seam"), 10_000);
      values.set(p.projectId, "changed-value");
      await sandboxes.env.changed(p.user.uid, p.projectId, ["PROJECT_GREETING"]);
      await waitFor("app restarted with the new value", async () => (await logged()).includes("app:changed-value"), 10_000);
      // Restarted in place (its count goes up), not replaced by a second process of the name.
      const [app] = (await sandboxes.processes.list(grantedAccess(p.user.uid, p.projectId))).filter((x) => x.name === APP_PROCESS);
      expect(app?.restarts).toBe(1);
    }, 30_000);

    test("an `app` the user stopped stays stopped when the environment changes", async () => {
      await sandboxes.processes.stopNamed(grantedAccess(p.user.uid, p.projectId), APP_PROCESS);
      await sandboxes.env.changed(p.user.uid, p.projectId, ["PROJECT_GREETING"]);
      await Bun.sleep(500);
      const [app] = (await sandboxes.processes.list(grantedAccess(p.user.uid, p.projectId))).filter((x) => x.name === APP_PROCESS);
      expect(app?.status).toBe("exited");
    }, 30_000);
  });
}
