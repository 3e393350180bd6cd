/** Readable sentences for every client error code of the identity provider (never the SDK's own text), and which end the session. */
import { authErrorCode } from "./firebase";

export const AUTH_ERROR_MESSAGES: Record<string, string> = {
  "auth/wrong-password": "The password is wrong. Try again.",
  "auth/invalid-credential": "The sign-in details were not accepted. Try again.",
  "auth/email-already-in-use": "An account already uses this email address.",
  "auth/user-not-found": "No account was found for these details.",
  "auth/expired-action-code": "This link has expired. Ask for a new one.",
  "auth/invalid-action-code": "This link is not valid; it may have been used already.",
  "auth/requires-recent-login": "For your security, sign in again and then retry.",
  "auth/password-does-not-meet-requirements": "The password does not meet the requirements.",
  "auth/multi-factor-auth-required": "This account needs a second sign-in step, which this app does not support.",
  "auth/popup-closed-by-user": "The sign-in window was closed before sign-in finished.",
  "auth/cancelled-popup-request": "Another sign-in window was opened; finish or close that one first.",
  "auth/popup-blocked": "The browser blocked the sign-in window. Allow pop-ups for this site and try again.",
  "auth/network-request-failed": "Could not reach the sign-in service. Check your connection and try again.",
  "auth/unauthorized-domain": "Sign-in is not enabled for this domain.",
  "auth/operation-not-allowed": "Google sign-in is not enabled for this project.",
  "auth/user-disabled": "This account has been disabled.",
  "auth/user-token-expired": "Your session has expired. Please sign in again.",
  "auth/too-many-requests": "Too many attempts. Wait a moment and try again.",
  "auth/account-exists-with-different-credential": "An account already exists with this email using another sign-in method.",
  "auth/internal-error": "The sign-in service hit an internal error. Try again.",
};

/** A sentence for a sign-in failure toast, or null when there is nothing better than the generic one. */
export function describeAuthError(err: unknown): string | null {
  const code = authErrorCode(err);
  if (code && AUTH_ERROR_MESSAGES[code]) return AUTH_ERROR_MESSAGES[code];
  // The SDK's own text ("Firebase: Error (auth/…).") is not for people: the generic sentence reads better.
  if (code?.startsWith("auth/")) return null;
  return err instanceof Error && err.message ? err.message : null;
}

/** The identity provider says this session is over: sign the user out. */
export function endsSession(err: unknown): boolean {
  const code = authErrorCode(err);
  return code === "auth/user-disabled" || code === "auth/user-token-expired";
}
