import { afterAll, afterEach, beforeAll, describe, expect, setSystemTime, spyOn, test } from "bun:test";
import type { AuthConfig } from "../lib/config";
import { AppError } from "../lib/errors";
import { exportJWK, generateKeyPair, SignJWT, type JWK, type JWTPayload } from "./jwt";
import { emulatorToken } from "../test/emulator-tokens";
import { createTokenVerifier } from "./verify-token";

const PROJECT = "real-project-123";
const firebaseAuth: AuthConfig = { mode: "firebase", projectId: PROJECT, apiKey: "k", authDomain: `${PROJECT}.firebaseapp.com` };
const emulatorAuth: AuthConfig = {
  mode: "emulator",
  projectId: "demo-app-builder",
  apiKey: "demo-api-key",
  authDomain: "demo-app-builder.firebaseapp.com",
  emulatorHost: "127.0.0.1:9099",
  startLocalEmulator: false,
};

type KeyPair = Awaited<ReturnType<typeof generateKeyPair>>;
let k1: KeyPair;
let k2: KeyPair;
let stranger: KeyPair;
const served: JWK[] = [];
let jwksRequests = 0;
let server: ReturnType<typeof Bun.serve>;
let jwksUrl: string;

async function publish(kid: string, pair: KeyPair) {
  served.push({ ...(await exportJWK(pair.publicKey)), kid, alg: "RS256", use: "sig" });
}

beforeAll(async () => {
  [k1, k2, stranger] = await Promise.all([generateKeyPair("RS256"), generateKeyPair("RS256"), generateKeyPair("RS256")]);
  await publish("k1", k1);
  server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch() {
      jwksRequests++;
      return Response.json({ keys: served });
    },
  });
  jwksUrl = `http://127.0.0.1:${server.port}/keys`;
});
afterAll(() => server.stop(true));
afterEach(() => setSystemTime()); // back to the real clock

const INVALID = "Your sign-in is not valid; sign in again.";
const OTHER_PROJECT = "This sign-in belongs to a different app; sign in again.";
const nowSec = () => Math.floor(Date.now() / 1000);

function claims(overrides: Partial<Record<string, unknown>> = {}): JWTPayload {
  const t = nowSec();
  return {
    iss: `https://securetoken.google.com/${PROJECT}`,
    aud: PROJECT,
    sub: "uid-alice",
    user_id: "uid-alice",
    auth_time: t - 60,
    iat: t - 60,
    exp: t + 3540,
    email: "alice@example.com",
    name: "Alice",
    firebase: { sign_in_provider: "google.com" },
    ...overrides,
  };
}

function signed(payload: JWTPayload, { key = k1.privateKey, kid = "k1" }: { key?: CryptoKey; kid?: string } = {}) {
  return new SignJWT(payload).setProtectedHeader({ alg: "RS256", kid, typ: "JWT" }).sign(key);
}

/** Asserts a 401 "unauthorized" AppError (and its message, when given) and returns it. */
async function rejection(p: Promise<unknown>, message?: string): Promise<AppError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  const appError = err as AppError;
  expect(appError.status).toBe(401);
  expect(appError.code).toBe("unauthorized");
  if (message !== undefined) expect(appError.message).toBe(message);
  return appError;
}

describe("firebase mode", () => {
  const verifier = () => createTokenVerifier(firebaseAuth, { jwksUrl });

  test("accepts a valid RS256 token and maps its claims", async () => {
    const identity = await verifier()(await signed(claims()));
    // email_verified absent from the claims: not verified (invitations need a verified address).
    expect(identity).toEqual({
      uid: "uid-alice",
      email: "alice@example.com",
      emailVerified: false,
      name: "Alice",
      picture: null,
      expiresAt: expect.any(Number),
    });
  });

  test("rejects an expired token with a human message", async () => {
    const t = nowSec();
    const err = await rejection(verifier()(await signed(claims({ auth_time: t - 7200, iat: t - 7200, exp: t - 3600 }))));
    expect(err.message).toBe("Your sign-in has expired; sign in again.");
  });

  test("rejects a token for another project (aud)", async () => {
    await rejection(verifier()(await signed(claims({ aud: "someone-else" }))), OTHER_PROJECT);
  });

  test("rejects a token from another issuer (iss)", async () => {
    await rejection(verifier()(await signed(claims({ iss: "https://evil.example.com" }))), OTHER_PROJECT);
    await rejection(verifier()(await signed(claims({ iss: "https://securetoken.google.com/someone-else" }))), OTHER_PROJECT);
  });

  test("rejects a token signed by another key under a known kid", async () => {
    const err = await rejection(verifier()(await signed(claims(), { key: stranger.privateKey, kid: "k1" })), INVALID);
    expect((err.cause as { code?: string }).code).toBe("ERR_JWS_SIGNATURE_VERIFICATION_FAILED");
  });

  test("rejects alg none and HS256 without fetching keys", async () => {
    const verify = verifier();
    const before = jwksRequests;
    await rejection(verify(emulatorToken(PROJECT, { uid: "uid-alice" })), INVALID);
    const secret = new TextEncoder().encode("a-shared-secret-long-enough-for-hs256");
    const hs256 = await new SignJWT(claims()).setProtectedHeader({ alg: "HS256", kid: "k1" }).sign(secret);
    await rejection(verify(hs256), INVALID);
    expect(jwksRequests).toBe(before);
  });

  test("rejects an empty sub and a 129-character sub, accepts 128", async () => {
    await rejection(verifier()(await signed(claims({ sub: "" }))), INVALID);
    await rejection(verifier()(await signed(claims({ sub: "x".repeat(129) }))), INVALID);
    expect((await verifier()(await signed(claims({ sub: "x".repeat(128) })))).uid).toBe("x".repeat(128));
  });

  test("rejects auth_time in the future, or missing", async () => {
    await rejection(verifier()(await signed(claims({ auth_time: nowSec() + 600 }))), INVALID);
    await rejection(verifier()(await signed(claims({ auth_time: undefined }))), INVALID);
  });

  test("rejects iat in the future and a missing exp", async () => {
    await rejection(verifier()(await signed(claims({ iat: nowSec() + 600 }))), INVALID);
    await rejection(verifier()(await signed(claims({ exp: undefined }))), INVALID);
  });

  test("rejects an empty or malformed token", async () => {
    expect((await rejection(verifier()(""))).message).toBe("Sign in to continue.");
    await rejection(verifier()("not.a.jwt"), INVALID);
  });

  test("honours the injected clock", async () => {
    const token = await signed(claims());
    const later = createTokenVerifier(firebaseAuth, { jwksUrl, now: () => Date.now() + 2 * 3600_000 });
    expect((await rejection(later(token))).message).toBe("Your sign-in has expired; sign in again.");
  });

  test("caches keys; refetches for an unknown kid only after the cooldown", async () => {
    const verify = verifier();
    const start = jwksRequests;
    const token = await signed(claims());
    for (let i = 0; i < 5; i++) expect((await verify(token)).uid).toBe("uid-alice");
    expect((await verify(await signed(claims({ sub: "uid-bob" })))).uid).toBe("uid-bob");
    expect(jwksRequests - start).toBe(1); // known kid: one fetch in all

    await publish("k2", k2); // Google rotates in a new key
    const rotated = await signed(claims(), { key: k2.privateKey, kid: "k2" });
    await rejection(verify(rotated), INVALID); // within jose's 30 s cooldown: no refetch, so a flood of bad kids costs nothing
    expect(jwksRequests - start).toBe(1);

    setSystemTime(new Date(Date.now() + 31_000));
    expect((await verify(await signed(claims(), { key: k2.privateKey, kid: "k2" }))).uid).toBe("uid-alice");
    expect(jwksRequests - start).toBe(2); // the unknown kid triggered one refresh

    setSystemTime(new Date(Date.now() + 31_000));
    await rejection(verify(await signed(claims(), { key: stranger.privateKey, kid: "never-published" })), INVALID);
    expect(jwksRequests - start).toBe(3); // refetched, still unknown: rejected
    expect((await verify(await signed(claims()))).uid).toBe("uid-alice"); // old keys still cached
    expect(jwksRequests - start).toBe(3);
  });

  test("an unreachable key server rejects with a try-again message", async () => {
    const dead = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("nope", { status: 500 }) });
    const verify = createTokenVerifier(firebaseAuth, { jwksUrl: `http://127.0.0.1:${dead.port}/` });
    const err = await rejection(verify(await signed(claims())));
    dead.stop(true);
    expect(err.message).toBe("Sign-in could not be checked right now; try again in a moment.");
  });
});

describe("firebase mode: verified-token cache", () => {
  /** Counts RS256 signature checks (jose verifies through WebCrypto). */
  function countChecks() {
    const spy = spyOn(crypto.subtle, "verify");
    return {
      get count() {
        return spy.mock.calls.length;
      },
      restore: () => spy.mockRestore(),
    };
  }

  test("a token verified once is not checked again; another token is", async () => {
    const verify = createTokenVerifier(firebaseAuth, { jwksUrl });
    const token = await signed(claims());
    const checks = countChecks();
    try {
      const first = await verify(token);
      for (let i = 0; i < 3; i++) expect(await verify(token)).toEqual(first);
      expect(checks.count).toBe(1);
      expect((await verify(await signed(claims({ sub: "uid-bob" })))).uid).toBe("uid-bob");
      expect(checks.count).toBe(2);
    } finally {
      checks.restore();
    }
  });

  test("a remembered token still expires at its exp", async () => {
    const verify = createTokenVerifier(firebaseAuth, { jwksUrl });
    const t = nowSec();
    const token = await signed(claims({ exp: t + 30 }));
    expect((await verify(token)).uid).toBe("uid-alice");
    setSystemTime(new Date((t + 31) * 1000));
    expect((await verify(token)).uid).toBe("uid-alice"); // within jose's 5 s clock tolerance, checked afresh
    setSystemTime(new Date((t + 40) * 1000));
    await rejection(verify(token), "Your sign-in has expired; sign in again.");
  });

  test("a remembered token is checked again after 10 minutes, even before its exp", async () => {
    const verify = createTokenVerifier(firebaseAuth, { jwksUrl });
    const token = await signed(claims());
    await verify(token);
    const checks = countChecks();
    try {
      setSystemTime(new Date(Date.now() + 9 * 60_000));
      await verify(token);
      expect(checks.count).toBe(0);
      setSystemTime(new Date(Date.now() + 2 * 60_000));
      expect((await verify(token)).uid).toBe("uid-alice");
      expect(checks.count).toBe(1);
    } finally {
      checks.restore();
    }
  });

  test("is bounded: the least recently used token is forgotten first", async () => {
    const verify = createTokenVerifier(firebaseAuth, { jwksUrl, cacheSize: 2 });
    const [a, b, c] = await Promise.all(["uid-a", "uid-b", "uid-c"].map((sub) => signed(claims({ sub }))));
    await verify(a!);
    await verify(b!);
    const checks = countChecks();
    try {
      await verify(a!); // a is now the most recent
      await verify(c!); // evicts b
      expect(checks.count).toBe(1);
      await verify(a!);
      expect(checks.count).toBe(1);
      await verify(b!);
      expect(checks.count).toBe(2);
    } finally {
      checks.restore();
    }
  });

  test("rejections are not remembered, and cacheSize 0 turns the cache off", async () => {
    const forged = await signed(claims(), { key: stranger.privateKey, kid: "k1" });
    const verify = createTokenVerifier(firebaseAuth, { jwksUrl, cacheSize: 0 });
    const token = await signed(claims());
    await verify(token);
    const checks = countChecks();
    try {
      await verify(token);
      await rejection(verify(forged), INVALID);
      await rejection(verify(forged), INVALID);
      expect(checks.count).toBe(3);
    } finally {
      checks.restore();
    }
  });

  test("callers cannot change what is remembered", async () => {
    const verify = createTokenVerifier(firebaseAuth, { jwksUrl });
    const token = await signed(claims());
    const identity = await verify(token);
    identity.uid = "uid-mallory";
    expect((await verify(token)).uid).toBe("uid-alice");
  });
});

describe("emulator mode", () => {
  const verify = createTokenVerifier(emulatorAuth);

  test("accepts an unsigned token for the configured project", async () => {
    const token = emulatorToken("demo-app-builder", { uid: "emu-1", email: "e@example.com", name: "Emu", picture: "https://p/x.png" });
    expect(await verify(token)).toEqual({
      uid: "emu-1",
      email: "e@example.com",
      emailVerified: true,
      name: "Emu",
      picture: "https://p/x.png",
      expiresAt: expect.any(Number),
    });
  });

  test("rejects an unsigned token for another project", async () => {
    await rejection(verify(emulatorToken("demo-other", { uid: "emu-1" })), OTHER_PROJECT);
  });

  test("rejects signed-looking tokens, even well-formed ones", async () => {
    await rejection(verify("eyJhbGciOiJSUzI1NiIsImtpZCI6ImsxIn0.eyJzdWIiOiJ4In0.c2lnbmF0dXJl"), INVALID);
    const real = await new SignJWT({ ...claims(), iss: "https://securetoken.google.com/demo-app-builder", aud: "demo-app-builder" })
      .setProtectedHeader({ alg: "RS256", kid: "k1" })
      .sign(k1.privateKey);
    await rejection(verify(real), INVALID);
    // alg none with a signature part attached is not what the emulator issues
    await rejection(verify(`${emulatorToken("demo-app-builder", { uid: "emu-1" })}c2ln`), INVALID);
  });

  test("rejects an expired emulator token", async () => {
    const token = emulatorToken("demo-app-builder", { uid: "emu-1" });
    const later = createTokenVerifier(emulatorAuth, { now: () => Date.now() + 3601_000 + 10_000 });
    expect((await rejection(later(token))).message).toBe("Your sign-in has expired; sign in again.");
    await rejection(verify(emulatorToken("demo-app-builder", { uid: "emu-1", expiresInSec: -60 })), "Your sign-in has expired; sign in again.");
  });

  test("applies the same sub checks", async () => {
    await rejection(verify(emulatorToken("demo-app-builder", { uid: "" })), INVALID);
    await rejection(verify(emulatorToken("demo-app-builder", { uid: "y".repeat(129) })), INVALID);
  });
});
