/**
 * Turns a Firebase ID token into an Identity. Firebase mode checks Google's RS256 signature against
 * keys that jose fetches once and caches; emulator mode accepts the Auth emulator's unsigned tokens, and only those,
 * for the configured project. Never both.
 *
 * Firebase mode remembers tokens it has verified (keyed by the whole token string, signature included), because an
 * RS256 check costs tens of microseconds and the SPA sends the same token with every request for up to an hour.
 * A remembered token is trusted only until its `exp` and at most TOKEN_CACHE_TTL_MS after it was checked; failures
 * are never remembered.
 *
 * @example
 * const verify = createTokenVerifier(config.auth);
 * const { uid } = await verify(bearerToken); // rejects with AppError 401 "unauthorized"
 */
import { createRemoteJWKSet, jwtErrors as errors, jwtVerify, UnsecuredJWT, type JWTPayload, type JWTVerifyOptions } from "./jwt";
import type { AuthConfig } from "../lib/config";
import { AppError } from "../lib/errors";
import type { Identity, TokenVerifier } from "./types";

export const GOOGLE_JWKS_URL = "https://www.googleapis.com/service_accounts/v1/jwk/securetoken@system.gserviceaccount.com";

const CLOCK_TOLERANCE_SEC = 5;
/** Real ID tokens are about 1 KB; anything far larger is not one, and not worth parsing. */
const MAX_TOKEN_CHARS = 16 * 1024;
/** As long as jose keeps a fetched key set: a remembered token is never trusted past the keys it was checked with. */
const TOKEN_CACHE_TTL_MS = 10 * 60_000;
/** About 1.5 KB each (token + identity): the default bounds the cache near 8 MB. */
const DEFAULT_TOKEN_CACHE_SIZE = 5_000;

const messages = {
  missing: "Sign in to continue.",
  expired: "Your sign-in has expired; sign in again.",
  otherProject: "This sign-in belongs to a different app; sign in again.",
  invalid: "Your sign-in is not valid; sign in again.",
  unverifiable: "Sign-in could not be checked right now; try again in a moment.",
};

export type TokenVerifierOptions = {
  /** Where Google's public keys are served; tests point this at a local server. */
  jwksUrl?: string;
  /** Current time in milliseconds since the epoch (default Date.now). */
  now?: () => number;
  /** How many verified tokens Firebase mode remembers (default 5,000; 0 turns the cache off). */
  cacheSize?: number;
};

export function createTokenVerifier(auth: AuthConfig, options: TokenVerifierOptions = {}): TokenVerifier {
  const now = options.now ?? Date.now;
  const claimChecks = (): JWTVerifyOptions => ({
    issuer: `https://securetoken.google.com/${auth.projectId}`,
    audience: auth.projectId,
    requiredClaims: ["exp", "iat", "sub", "auth_time"],
    clockTolerance: CLOCK_TOLERANCE_SEC,
    currentDate: new Date(now()),
  });

  if (auth.mode === "emulator") {
    return async (token) => {
      checkShape(token);
      let payload: JWTPayload;
      try {
        // Throws unless the header is exactly alg "none" with an empty signature part.
        payload = UnsecuredJWT.decode(token, claimChecks()).payload;
      } catch (err) {
        throw toUnauthorized(err);
      }
      return toIdentity(payload, now());
    };
  }

  // Caches the key set (10 min) and refetches on an unknown `kid` at most once per 30 s cooldown.
  const keys = createRemoteJWKSet(new URL(options.jwksUrl ?? GOOGLE_JWKS_URL));
  const verified = createTokenCache(options.cacheSize ?? DEFAULT_TOKEN_CACHE_SIZE, now);
  return async (token) => {
    checkShape(token);
    const remembered = verified.get(token);
    if (remembered) return remembered;
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, keys, { ...claimChecks(), algorithms: ["RS256"] }));
    } catch (err) {
      throw toUnauthorized(err);
    }
    const identity = toIdentity(payload, now());
    verified.set(token, identity, payload.exp! * 1000);
    return identity;
  };
}

/**
 * Verified tokens, least recently used first (a Map keeps insertion order; a hit moves its entry to the end).
 * An entry past its deadline is dropped on read, so an expired token always goes through full verification and
 * gets the "expired" message from there.
 */
function createTokenCache(maxEntries: number, now: () => number) {
  const entries = new Map<string, { identity: Identity; until: number }>();
  return {
    get(token: string): Identity | undefined {
      const entry = entries.get(token);
      if (!entry) return undefined;
      entries.delete(token);
      if (now() >= entry.until) return undefined;
      entries.set(token, entry);
      return { ...entry.identity };
    },
    set(token: string, identity: Identity, expMs: number): void {
      if (maxEntries <= 0) return;
      if (entries.size >= maxEntries) entries.delete(entries.keys().next().value!);
      entries.set(token, { identity: { ...identity }, until: Math.min(expMs, now() + TOKEN_CACHE_TTL_MS) });
    },
  };
}

function checkShape(token: string): void {
  if (typeof token !== "string" || token.trim() === "") throw new AppError(401, "unauthorized", messages.missing);
  if (token.length > MAX_TOKEN_CHARS) throw new AppError(401, "unauthorized", messages.invalid);
}

/** The checks jose leaves to us: a usable `sub`, and `auth_time`/`iat` not in the future. */
function toIdentity(payload: JWTPayload, nowMs: number): Identity {
  const latest = nowMs / 1000 + CLOCK_TOLERANCE_SEC;
  const { sub, auth_time: authTime, iat } = payload;
  if (typeof sub !== "string" || sub.length === 0 || sub.length > 128) throw invalid("sub must be 1-128 characters");
  if (typeof authTime !== "number" || !Number.isFinite(authTime) || authTime > latest) throw invalid("auth_time is in the future");
  if (typeof iat !== "number" || iat > latest) throw invalid("iat is in the future");
  return {
    uid: sub,
    email: stringOrNull(payload.email),
    emailVerified: payload.email_verified === true,
    name: stringOrNull(payload.name),
    picture: stringOrNull(payload.picture),
    ...(typeof payload.exp === "number" ? { expiresAt: payload.exp * 1000 } : {}),
  };
}

const stringOrNull = (v: unknown) => (typeof v === "string" && v !== "" ? v : null);

/** The reason stays in `cause` for logs; the caller only sees the short message. */
function invalid(reason: string): AppError {
  return new AppError(401, "unauthorized", messages.invalid, { cause: new Error(reason) });
}

function toUnauthorized(err: unknown): AppError {
  if (err instanceof AppError) return err;
  const message =
    err instanceof errors.JWTExpired
      ? messages.expired
      : err instanceof errors.JWTClaimValidationFailed && (err.claim === "aud" || err.claim === "iss")
        ? messages.otherProject
        : err instanceof errors.JWKSTimeout || !(err instanceof errors.JOSEError) || err.code === errors.JOSEError.code
          ? // The key set could not be fetched or read (network down, Google unreachable): not the caller's fault.
            messages.unverifiable
          : messages.invalid;
  return new AppError(401, "unauthorized", message, { cause: err });
}
