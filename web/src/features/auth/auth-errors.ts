/** Readable sentences for Firebase Auth error codes, and which codes end the session. */
import { authErrorCode } from "./firebase";

const MESSAGES: Record<string, string> = {
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
  if (code && MESSAGES[code]) return MESSAGES[code];
  return err instanceof Error && err.message ? err.message : null;
}

/** The identity provider says this session is over: sign the user out (spec §4). */
export function endsSession(err: unknown): boolean {
  const code = authErrorCode(err);
  return code === "auth/user-disabled" || code === "auth/user-token-expired";
}
