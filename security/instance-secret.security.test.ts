/**
 * Attack replayed: a client on the public port poses as another instance (issue 24, item 2), with a guessed
 * INSTANCE_SECRET or none, hoping to be taken as an internal, already-forwarded request; and, holding the
 * real secret (a leaked one), hoping it stands in for a user's sign-in.
 * Safe outcome: a forged or missing secret answers 401 before any route, logged without the value given; the
 * real secret only marks a request as internal, so without a user's token a sandbox route still answers
 * 401 for sign-in, and another user's project stays 404.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { processUser, startAppProcess, type AppProcess } from "../api/src/test/app-process";

const SECRET = "security-test-instance-secret";
let app: AppProcess;

beforeAll(async () => {
  app = await startAppProcess({ INSTANCE_SECRET: SECRET, SANDBOX_WARM_TEMPLATES: "none" });
}, 60_000);
afterAll(async () => {
  app?.kill("SIGTERM");
  await app?.exited;
  if (app) rmSync(app.dataDir, { recursive: true, force: true });
});

describe("posing as another instance", () => {
  test("a guessed or missing secret answers 401 on every path, logged without the guess", async () => {
    const alice = processUser("alice");
    const project = (await (
      await fetch(`${app.url}/api/projects`, { method: "POST", headers: { ...alice.auth, "content-type": "application/json" }, body: '{"name":"P"}' })
    ).json()) as { id: string };
    for (const path of [`/api/sandbox/${project.id}/processes`, "/api/health", "/"]) {
      for (const headers of <Record<string, string>[]>[
        { "x-appbuilder-instance": "app-2", "x-instance-secret": "guessed-guessed-guessed" },
        { "x-appbuilder-instance": "app-2" },
      ]) {
        const res = await fetch(`${app.url}${path}`, { headers: { ...alice.auth, ...headers } });
        expect(res.status).toBe(401);
        expect(((await res.json()) as { error: string }).error).toContain("INSTANCE_SECRET");
      }
    }
    await app.waitForLine((l) => l.includes("internal request refused") && l.includes("/api/health"));
    expect(app.lines.some((l) => l.includes("guessed-guessed"))).toBe(false);
  });

  test("the real secret is no sign-in: without a token 401, and someone else's project stays 404", async () => {
    const internal = { "x-appbuilder-instance": "app-2", "x-instance-secret": SECRET };
    const alice = processUser("alice");
    const project = (await (
      await fetch(`${app.url}/api/projects`, { method: "POST", headers: { ...alice.auth, "content-type": "application/json" }, body: '{"name":"Q"}' })
    ).json()) as { id: string };
    const anonymous = await fetch(`${app.url}/api/sandbox/${project.id}/processes`, { headers: internal });
    expect(anonymous.status).toBe(401);
    expect(((await anonymous.json()) as { error: string }).error).not.toContain("INSTANCE_SECRET");
    const mallory = processUser("mallory");
    expect((await fetch(`${app.url}/api/sandbox/${project.id}/processes`, { headers: { ...internal, ...mallory.auth } })).status).toBe(404);
  });
});
