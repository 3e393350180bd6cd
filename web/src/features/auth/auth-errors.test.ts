import { expect, test } from "bun:test";
import { AUTH_ERROR_MESSAGES, describeAuthError, endsSession } from "./auth-errors";

/** The identity provider's client error codes a user can meet, all of them. */
const SPEC_CODES = [
  "wrong-password",
  "invalid-credential",
  "email-already-in-use",
  "user-not-found",
  "too-many-requests",
  "expired-action-code",
  "invalid-action-code",
  "requires-recent-login",
  "user-token-expired",
  "user-disabled",
  "operation-not-allowed",
  "password-does-not-meet-requirements",
  "popup-blocked",
  "popup-closed-by-user",
  "cancelled-popup-request",
  "network-request-failed",
  "unauthorized-domain",
  "multi-factor-auth-required",
  "account-exists-with-different-credential",
];

const firebaseError = (code: string) => Object.assign(new Error(`Firebase: Error (auth/${code}).`), { code: `auth/${code}` });

test("every client identity error code reads as a sentence, never the SDK's text", () => {
  for (const code of SPEC_CODES) {
    const said = describeAuthError(firebaseError(code));
    expect({ code, said }).toEqual({ code, said: AUTH_ERROR_MESSAGES[`auth/${code}`]! });
    expect(said).not.toContain("Firebase");
  }
});

test("an auth code without a sentence falls back to the generic message; other errors keep theirs", () => {
  expect(describeAuthError(firebaseError("some-new-code"))).toBeNull();
  expect(describeAuthError(new Error("Config fetch failed"))).toBe("Config fetch failed");
  expect(describeAuthError("nope")).toBeNull();
});

test("only a disabled user or an expired token ends the session", () => {
  expect(endsSession(firebaseError("user-disabled"))).toBe(true);
  expect(endsSession(firebaseError("user-token-expired"))).toBe(true);
  expect(endsSession(firebaseError("network-request-failed"))).toBe(false);
});
