/** What a verified Firebase ID token tells us about the caller. */
export type Identity = {
  uid: string;
  email: string | null;
  /** Whether the provider verified `email` (invitations go only to a verified address). */
  emailVerified?: boolean;
  name: string | null;
  picture: string | null;
  /** When the token stops being valid (ms since the epoch): long-lived connections end there. */
  expiresAt?: number;
};

/**
 * Verifies a Firebase ID token and returns the caller's identity.
 * Rejects with AppError 401 (code "unauthorized") for any token that is not valid.
 */
export type TokenVerifier = (token: string) => Promise<Identity>;
