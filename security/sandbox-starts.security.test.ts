/**
 * Attack replayed: "sandbox starts by any route are rate-limited per user": the sandbox-start limit was
 * counted only on the routes named for it (recreate, template, run workflow), so a user cycling a plain read
 * such as `GET /api/sandbox/{id}/processes` over one new project after another had a fresh sandbox made for
 * each, as fast as she liked. Against the real app (its routes, the test database, the app's own local
 * sandbox provider) with RATE_LIMIT_SANDBOX_PER_MINUTE=2.
 * Safe outcome: once she had 2 sandboxes made, the next new one is refused with 429 (Retry-After) and no
 * sandbox is made for it; her running ones still answer; another user's start is unaffected. Every sandbox
 * made is shut down at the end. (The same limit across two instances, and on the routes named for it, is
 * covered in api/src/routes/limits.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import fs from "node:fs";
import path from "node:path";
import { createApp } from "../api/src/app";
import { createLogger } from "../api/src/lib/logger";
import { createSandboxProvider } from "../api/src/sandbox/index";
import { createProjectSandboxes, type ProjectSandboxesService } from "../api/src/services/sandboxes";
import { localSuiteGate, mountsUnder } from "../api/src/test/local-sandbox-support";
import { testApp, type TestUser } from "../api/src/test/test-app";

const LIMIT = 2;

if (await localSuiteGate("sandbox start rate limit security")) {
  describe("sandbox starts are rate-limited per user, whichever route makes them", () => {
    let t: Awaited<ReturnType<typeof testApp>>;
    let app: ReturnType<typeof createApp>;
    let sandboxes: ProjectSandboxesService;
    let rootDir: string;
    /** The provider's log: a "sandbox started" line for every sandbox handed to a project. */
    const lines: string[] = [];
    beforeAll(async () => {
      t = await testApp({ env: { RATE_LIMIT_SANDBOX_PER_MINUTE: String(LIMIT), SANDBOX_WARM_TEMPLATES: "none", SANDBOX_DISK_MB: "256" } });
      // An hour-long window instead of a minute: a run that straddled a minute boundary would see its count reset.
      const config = { ...t.deps.config, rateLimits: { ...t.deps.config.rateLimits, windowSeconds: 3600 } };
      rootDir = path.join(config.dataDir, "sandboxes");
      const provider = createSandboxProvider(
        config,
        createLogger("info", (line) => lines.push(line)),
      );
      sandboxes = createProjectSandboxes({ ...t.deps, provider, config });
      app = createApp({ ...t.deps, config, sandboxes, sandboxSync: sandboxes.sync });
    }, 60_000);
    afterAll(async () => {
      await sandboxes?.shutdown();
      await t?.deps.sandboxes.shutdown();
    }, 60_000);

    const as = (u: TestUser) => (method: string, route: string, body?: unknown) =>
      app.request(route, {
        method,
        headers: { authorization: `Bearer ${u.token}`, ...(body !== undefined ? { "content-type": "application/json" } : {}) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    const made = () => lines.filter((l) => l.includes('"sandbox started"')).map((l) => JSON.parse(l) as { sandboxId: string; projectId: string });
    const newProject = async (u: TestUser, name: string) => ((await (await as(u)("POST", "/api/projects", { name })).json()) as { id: string }).id;

    test("sandbox starts by any route are rate-limited per user: cycling GET …/processes over new projects gets 429 once RATE_LIMIT_SANDBOX_PER_MINUTE sandboxes were made, and no further sandbox is made", async () => {
      const mallory = t.user("mallory");
      const call = as(mallory);
      const ids: string[] = [];
      for (let i = 0; i < LIMIT; i++) {
        ids.push(await newProject(mallory, `Cycle ${i}`));
        expect((await call("GET", `/api/sandbox/${ids[i]}/processes`)).status).toBe(200); // a new sandbox each
      }
      expect(made().map((s) => s.projectId)).toEqual(ids);

      for (let i = 0; i < 3; i++) {
        const id = await newProject(mallory, `One more ${i}`);
        const res = await call("GET", `/api/sandbox/${id}/processes`);
        expect(res.status).toBe(429);
        expect((await res.json()) as { code: string; error: string }).toEqual({
          code: "rate_limited",
          error: expect.stringMatching(/^Too many sandbox starts \(recreate, template, run workflow\) — try again in \d+ s\.$/),
        });
        expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
        expect((await t.db.sql`select sandbox_id from projects where id = ${id}`)[0]!.sandbox_id).toBeNull();
      }
      // No further sandbox was made, and the ones she has still answer (using a running sandbox is free).
      expect(made().length).toBe(LIMIT);
      for (const id of ids) expect((await call("GET", `/api/sandbox/${id}/processes`)).status).toBe(200);
      expect(made().length).toBe(LIMIT);

      // The limit is hers alone: another user gets his sandbox.
      const bob = t.user("bob");
      const his = await newProject(bob, "Bob's");
      expect((await as(bob)("GET", `/api/sandbox/${his}/processes`)).status).toBe(200);
      expect(made().map((s) => s.projectId)).toEqual([...ids, his]);

      // Every sandbox made is shut down: none left running, mounted or on disk.
      const onDisk = () => made().filter((s) => fs.existsSync(path.join(rootDir, s.sandboxId))).length;
      expect(onDisk()).toBe(LIMIT + 1);
      expect(mountsUnder(rootDir).length).toBeGreaterThanOrEqual(LIMIT + 1); // each one's disk volume
      await sandboxes.shutdown();
      expect(mountsUnder(rootDir)).toEqual([]);
      expect(onDisk()).toBe(0);
    }, 90_000);
  });
}
