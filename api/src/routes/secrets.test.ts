/**
 * /api/projects/{id}/secrets on the real app and database: every rule (names, reserved names, value size,
 * the per-project cap), values never answered and sealed at rest, 404 for another user's project on every
 * route, a change restarting `app` in a real local sandbox, and a decline reaching a waiting run.
 */
import { grantedAccess } from "../test/access";
import { afterAll, describe, expect, test } from "bun:test";
import { APP_PROCESS } from "@shared/schemas/processes";
import { MAX_SECRETS_PER_PROJECT, RESERVED_SECRET_NAMES } from "@shared/schemas/secrets";
import { waitForSecret } from "../services/secrets/secret-requests";
import { localSuiteGate } from "../test/local-sandbox-support";
import { waitFor } from "../test/sandbox-contract";
import { testApp } from "../test/test-app";

const t = await testApp();
afterAll(() => t.deps.sandboxes.shutdown());
const alice = t.user("alice");
const bob = t.user("bob");

async function project(owner = alice): Promise<string> {
  return ((await (await owner.request("POST", "/api/projects", { name: "Secrets" })).json()) as { id: string }).id;
}
const error = async (res: Response) => ((await res.json()) as { error: string }).error;

describe("secrets routes", () => {
  test("set, list (names and times only), replace, delete", async () => {
    const id = await project();
    const put = await alice.request("PUT", `/api/projects/${id}/secrets/WEATHER_API_KEY`, { value: "wk-1234567890" });
    expect(put.status).toBe(201);
    const first = (await put.json()) as { name: string; updatedAt: string };
    expect(first).toEqual({ name: "WEATHER_API_KEY", updatedAt: expect.any(String) });

    const listed = await alice.request("GET", `/api/projects/${id}/secrets`);
    const text = await listed.text();
    expect(JSON.parse(text)).toEqual([{ name: "WEATHER_API_KEY", updatedAt: first.updatedAt }]);
    expect(text).not.toContain("wk-1234567890");

    const replaced = await alice.request("PUT", `/api/projects/${id}/secrets/WEATHER_API_KEY`, { value: "wk-replaced-000" });
    expect(replaced.status).toBe(200);
    expect(await t.deps.secrets.values(id)).toEqual([{ name: "WEATHER_API_KEY", value: "wk-replaced-000" }]);

    expect((await alice.request("DELETE", `/api/projects/${id}/secrets/WEATHER_API_KEY`)).status).toBe(204);
    expect(await (await alice.request("GET", `/api/projects/${id}/secrets`)).json()).toEqual([]);
    const again = await alice.request("DELETE", `/api/projects/${id}/secrets/WEATHER_API_KEY`);
    expect(again.status).toBe(404);
    expect(await error(again)).toBe("Secret not found");
  });

  test("values are sealed at rest: the row holds no plaintext, and it opens only for its own project and name", async () => {
    const id = await project();
    await alice.request("PUT", `/api/projects/${id}/secrets/STRIPE_KEY`, { value: "sk_test_plaintext_42" });
    const [row] = await t.db.sql<{ value_sealed: string }[]>`select value_sealed from project_secrets where project_id = ${id}`;
    expect(row!.value_sealed).not.toContain("sk_test_plaintext_42");
    expect(row!.value_sealed).toStartWith("v1.");
    // Copied onto another project's row, it does not open (and is left out rather than handed over).
    const other = await project();
    await t.db.sql`insert into project_secrets (project_id, name, value_sealed) values (${other}, 'STRIPE_KEY', ${row!.value_sealed})`;
    expect(await t.deps.secrets.values(other)).toEqual([]);
  });

  test("another user's project is 404 on every route, whatever the name or body", async () => {
    const id = await project();
    await alice.request("PUT", `/api/projects/${id}/secrets/API_KEY`, { value: "alice-only-value" });
    const tries: [string, string, unknown][] = [
      ["GET", `/api/projects/${id}/secrets`, undefined],
      ["PUT", `/api/projects/${id}/secrets/API_KEY`, { value: "bob-overwrites" }],
      ["PUT", `/api/projects/${id}/secrets/bad-name`, { value: 3 }],
      ["PUT", `/api/projects/${id}/secrets/OTHER`, "not json"],
      ["DELETE", `/api/projects/${id}/secrets/API_KEY`, undefined],
      ["POST", `/api/projects/${id}/secrets/API_KEY/decline`, undefined],
      ["GET", `/api/projects/not-a-uuid/secrets`, undefined],
      ["PUT", `/api/projects/${crypto.randomUUID()}/secrets/API_KEY`, { value: "nobody's" }],
    ];
    for (const [method, path, body] of tries)
      expect({ method, path, status: (await bob.request(method, path, body)).status }).toEqual({ method, path, status: 404 });
    expect(await t.deps.secrets.values(id)).toEqual([{ name: "API_KEY", value: "alice-only-value" }]);
  });

  test("bad names are 400 with the reason", async () => {
    const id = await project();
    for (const name of ["lower_case", "1STARTS_WITH_DIGIT", "HAS-DASH", `A${"B".repeat(64)}`, "SPACE%20X"]) {
      const res = await alice.request("PUT", `/api/projects/${id}/secrets/${name}`, { value: "some-value" });
      expect({ name, status: res.status }).toEqual({ name, status: 400 });
      expect(await error(res)).toContain("upper-case letters, digits or _");
    }
    expect((await alice.request("PUT", `/api/projects/${id}/secrets/A${"B".repeat(63)}`, { value: "64 characters is fine" })).status).toBe(201);
  });

  test("names the system sets are 400", async () => {
    const id = await project();
    for (const name of RESERVED_SECRET_NAMES) {
      const res = await alice.request("PUT", `/api/projects/${id}/secrets/${name}`, { value: "some-value" });
      expect({ name, status: res.status }).toEqual({ name, status: 400 });
      expect(await error(res)).toBe(`${name} is set by the system in every sandbox process; choose another name.`);
    }
  });

  test("bad values are 400 with the reason: over 32 KB, empty, missing, not a string, not JSON", async () => {
    const id = await project();
    const path = `/api/projects/${id}/secrets/BIG`;
    expect((await alice.request("PUT", path, { value: "x".repeat(32 * 1024) })).status).toBe(201);
    const big = await alice.request("PUT", path, { value: "x".repeat(32 * 1024 + 1) });
    expect(big.status).toBe(400);
    expect(await error(big)).toBe("A secret's value is at most 32 KB.");
    // Counted in bytes: 11 000 three-byte characters are 33 000 bytes.
    expect((await alice.request("PUT", path, { value: "€".repeat(11_000) })).status).toBe(400);
    expect(await error(await alice.request("PUT", path, { value: "" }))).toBe("The value is empty; type the secret's value.");
    for (const body of [{}, { value: 42 }, "not json"]) {
      const res = await alice.request("PUT", path, body);
      expect(res.status).toBe(400);
      expect(await error(res)).toBe('Send the value as JSON: {"value": "…"}.');
    }
  });

  test(`a project holds at most ${MAX_SECRETS_PER_PROJECT} secrets; replacing one at the cap still works`, async () => {
    const id = await project();
    for (let i = 0; i < MAX_SECRETS_PER_PROJECT; i++) {
      expect((await alice.request("PUT", `/api/projects/${id}/secrets/KEY_${i}`, { value: `value-${i}` })).status).toBe(201);
    }
    const over = await alice.request("PUT", `/api/projects/${id}/secrets/ONE_MORE`, { value: "value-x" });
    expect(over.status).toBe(400);
    expect(await error(over)).toContain(`at most ${MAX_SECRETS_PER_PROJECT} secrets`);
    expect((await alice.request("PUT", `/api/projects/${id}/secrets/KEY_0`, { value: "replaced" })).status).toBe(200);
  });

  test("secrets are in the project's environment; a deleted project's are gone", async () => {
    const id = await project();
    await alice.request("PUT", `/api/projects/${id}/secrets/API_KEY`, { value: "env-value-123" });
    expect(await t.deps.sandboxes.env.forProject(id)).toMatchObject({ API_KEY: "env-value-123" });
    expect((await alice.request("DELETE", `/api/projects/${id}`)).ok).toBe(true);
    expect(await t.db.sql`select 1 from project_secrets where project_id = ${id}`).toHaveLength(0);
  });

  test("a run waiting for a secret hears 'set' from a PUT and 'declined' from the Decline route", async () => {
    const id = await project();
    const signal = new AbortController().signal;
    const set = waitForSecret(t.deps.events, id, "API_KEY", { signal });
    const other = waitForSecret(t.deps.events, id, "OTHER_KEY", { signal, timeoutMs: 60_000 });
    await alice.request("PUT", `/api/projects/${id}/secrets/API_KEY`, { value: "now-it-is-set" });
    expect(await set).toBe("set");
    expect((await alice.request("POST", `/api/projects/${id}/secrets/OTHER_KEY/decline`)).status).toBe(204);
    expect(await other).toBe("declined");
    expect(await waitForSecret(t.deps.events, id, "LATE_KEY", { signal, timeoutMs: 50 })).toBe("declined");
  });
});

if (await localSuiteGate("secrets in a sandbox", { sameOnEveryDatabase: true })) {
  describe("secrets in a local sandbox", () => {
    test("setting a secret restarts `app` with it; deleting it restarts `app` without it", async () => {
      const id = await project();
      await t.deps.sandboxes.processes.start(grantedAccess(alice.uid, id), { name: APP_PROCESS, command: 'echo "key=[$API_KEY]"; sleep 1000' });
      const logged = async () => (await t.deps.sandboxes.processes.logs(grantedAccess(alice.uid, id), APP_PROCESS)).lines.map((l) => l.text);
      await waitFor("app's first start", async () => (await logged()).includes("key=[]"));
      await alice.request("PUT", `/api/projects/${id}/secrets/API_KEY`, { value: "in-the-app-now" });
      await waitFor("app restarted with the secret", async () => (await logged()).includes("key=[in-the-app-now]"));
      await alice.request("DELETE", `/api/projects/${id}/secrets/API_KEY`);
      await waitFor("app restarted without it", async () => (await logged()).filter((l) => l === "key=[]").length === 2);
    }, 60_000);
  });
}
