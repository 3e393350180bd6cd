import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AuthConfig } from "../lib/config";
import { silentLogger } from "../lib/logger";
import { clearEmulatorAccounts, signInWithFakeGoogle } from "../test/emulator-sign-in";
import { startAuthEmulator, type AuthEmulator } from "./emulator";
import { createTokenVerifier } from "./verify-token";

const PROJECT = "demo-auth-emulator-test";

/** A port nothing listens on right now (not 9099, which a developer's own emulator may hold). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

async function answers(host: string): Promise<boolean> {
  try {
    await fetch(`http://${host}/`, { signal: AbortSignal.timeout(1_000) });
    return true;
  } catch {
    return false;
  }
}

describe("Firebase Auth emulator", () => {
  let dataDir: string;
  let port: number;
  let host: string;
  let emulator: AuthEmulator | undefined;
  let startMs = 0;

  beforeAll(
    async () => {
      dataDir = await mkdtemp(join(tmpdir(), "auth-emulator-test-"));
      port = await freePort();
      host = `127.0.0.1:${port}`;
      const t0 = Date.now();
      emulator = await startAuthEmulator({ projectId: PROJECT, host: "127.0.0.1", port, dataDir, log: silentLogger });
      startMs = Date.now() - t0;
    },
    { timeout: 120_000 },
  );

  afterAll(async () => {
    await emulator?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  test("starts a fresh emulator on the requested port", async () => {
    expect(emulator?.reused).toBe(false);
    expect(startMs).toBeLessThan(90_000);
    expect(await answers(host)).toBe(true);
  });

  test("a fake Google sign-in yields a token the emulator-mode verifier accepts", async () => {
    const auth: AuthConfig = {
      mode: "emulator",
      projectId: PROJECT,
      apiKey: "demo-api-key",
      authDomain: `${PROJECT}.firebaseapp.com`,
      emulatorHost: host,
      startLocalEmulator: true,
    };
    const { idToken, localId } = await signInWithFakeGoogle(host, PROJECT, { email: "ada@example.com", name: "Ada" });
    const identity = await createTokenVerifier(auth)(idToken);
    expect(identity).toEqual({ uid: localId, email: "ada@example.com", emailVerified: true, name: "Ada", picture: null, expiresAt: expect.any(Number) });

    // Same email, same account; after clearing, a new account.
    expect((await signInWithFakeGoogle(host, PROJECT, { email: "ada@example.com", name: "Ada" })).localId).toBe(localId);
    await clearEmulatorAccounts(host, PROJECT);
    expect((await signInWithFakeGoogle(host, PROJECT, { email: "ada@example.com", name: "Ada" })).localId).not.toBe(localId);
  });

  test("signing in for a project the emulator does not serve fails clearly", async () => {
    await expect(signInWithFakeGoogle(host, "demo-other", { email: "x@example.com", name: "X" })).rejects.toThrow(/serves project/);
  });

  test("a second start on the same port reuses the running emulator", async () => {
    const second = await startAuthEmulator({ projectId: PROJECT, port, dataDir, log: silentLogger });
    expect(second.reused).toBe(true);
    await second.stop(); // a no-op: the first one must still answer
    expect(await answers(host)).toBe(true);
  });

  test("refuses a port held by something else, with a fix in the message", async () => {
    const other = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("hello") });
    try {
      await expect(startAuthEmulator({ projectId: PROJECT, port: other.port!, dataDir, log: silentLogger })).rejects.toThrow(/FIREBASE_AUTH_EMULATOR_HOST/);
    } finally {
      other.stop(true);
    }
  });

  test("a start that times out rejects with a fix and leaves no emulator behind", async () => {
    const spare = await freePort();
    const start = startAuthEmulator({ projectId: PROJECT, port: spare, dataDir, log: silentLogger, startTimeoutMs: 500 });
    await expect(start).rejects.toThrow(/did not answer at 127\.0\.0\.1:\d+ within[\s\S]*FIREBASE_AUTH_EMULATOR_HOST/);
    await Bun.sleep(1_000);
    expect(await answers(`127.0.0.1:${spare}`)).toBe(false);
  });

  test("stop ends the emulator and frees the port", async () => {
    await emulator!.stop();
    emulator = undefined;
    expect(await answers(host)).toBe(false);
  });
});
