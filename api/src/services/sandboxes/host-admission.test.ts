/**
 * The real app on the embedded default with local sandboxes and MAX_SANDBOXES_PER_HOST=1: start-up says
 * which cgroup mode is in force and the budget, /api/ready's details say the same, and a second sandbox
 * start on the full host answers 503 with a clear message.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { localSuiteGate } from "../../test/local-sandbox-support";
import { processUser, startAppProcess, type AppProcess } from "../../test/app-process";

if (await localSuiteGate("host admission (app)", { sameOnEveryDatabase: true })) {
  describe("a full host", () => {
    let app: AppProcess;
    const user = processUser("host");
    const api = (path: string, init: RequestInit = {}) =>
      fetch(`${app.url}${path}`, { ...init, headers: { ...user.auth, "content-type": "application/json", ...(init.headers as Record<string, string>) } });

    beforeAll(async () => {
      app = await startAppProcess({ MAX_SANDBOXES_PER_HOST: "1", SANDBOX_WARM_TEMPLATES: "none" });
    }, 60_000);
    afterAll(async () => {
      app?.kill("SIGTERM");
      await app?.exited;
      if (app) rmSync(app.dataDir, { recursive: true, force: true });
    });

    test("start-up states the cgroup mode and the budget; /api/ready's details repeat them", async () => {
      const limitsLine = JSON.parse(await app.waitForLine((l) => l.includes('"msg":"sandbox limits')));
      expect(limitsLine.msg).toMatch(/^sandbox limits: (cgroup v2|cgroup v1|no cgroups in force)$/);
      expect(limitsLine.level).toBe(limitsLine.msg.includes("no cgroups") ? "warn" : "info");
      const budget = JSON.parse(await app.waitForLine((l) => l.includes('"msg":"sandbox admission')));
      expect(budget.maxSandboxesPerHost).toBe(1);
      const ready = await (await fetch(`${app.url}/api/ready`)).json();
      expect(ready.details.maxSandboxesPerHost).toBe(1);
      expect(ready.details.sandboxLimits.detail).toBe(limitsLine.detail);
      expect(limitsLine.msg).toContain(ready.details.sandboxLimits.cgroups === "none" ? "no cgroups" : `cgroup ${ready.details.sandboxLimits.cgroups}`);
    });

    test("the second sandbox start answers 503 naming MAX_SANDBOXES_PER_HOST; the first keeps running", async () => {
      const [a, b] = await Promise.all(
        ["First", "Second"].map(
          async (name) => (await (await api("/api/projects", { method: "POST", body: JSON.stringify({ name }) })).json()) as { id: string },
        ),
      );
      const first = await api(`/api/sandbox/${a!.id}/recreate`, { method: "POST" });
      expect(first.status).toBe(200);
      const second = await api(`/api/sandbox/${b!.id}/recreate`, { method: "POST" });
      expect(second.status).toBe(503);
      expect(second.headers.get("retry-after")).toBe("60");
      const body = (await second.json()) as { error: string; code: string };
      expect(body.code).toBe("dependency_unavailable");
      expect(body.error).toBe(
        "This server is running as many sandboxes as it may (1, MAX_SANDBOXES_PER_HOST); try again in a few minutes, when an idle one has stopped.",
      );
      expect((await api(`/api/sandbox/${a!.id}/validate`)).status).toBe(200);
    }, 60_000);
  });
}
