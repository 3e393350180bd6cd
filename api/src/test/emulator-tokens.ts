/**
 * Test helper: mints the unsigned ID tokens the Firebase Auth emulator issues, without running the emulator.
 * Mirrors firebase-tools' `generateJwt` (jsonwebtoken with algorithm "none"), so a verifier in emulator mode
 * accepts it exactly as it would a real emulator token.
 *
 * @example
 * const token = emulatorToken("demo-app-builder", { uid: "alice", email: "alice@example.com" });
 * await app.request("/api/projects", { headers: { authorization: `Bearer ${token}` } });
 */
export type EmulatorTokenUser = {
  uid: string;
  email?: string;
  name?: string;
  picture?: string;
  /** Lifetime from now; the emulator uses 3600. */
  expiresInSec?: number;
  /** Whether the provider verified `email` (default: verified whenever there is one). */
  emailVerified?: boolean;
  /** Clock to mint against, in ms since the epoch (default Date.now()). */
  nowMs?: number;
};

export function emulatorToken(projectId: string, user: EmulatorTokenUser): string {
  const iat = Math.floor((user.nowMs ?? Date.now()) / 1000);
  const identities: Record<string, string[]> = { "google.com": [`google-${user.uid}`] };
  if (user.email) identities.email = [user.email];
  const payload = {
    name: user.name,
    picture: user.picture,
    email: user.email,
    email_verified: user.email ? (user.emailVerified ?? true) : undefined,
    auth_time: iat,
    user_id: user.uid,
    firebase: { identities, sign_in_provider: "google.com" },
    iat,
    exp: iat + (user.expiresInSec ?? 3600),
    aud: projectId,
    iss: `https://securetoken.google.com/${projectId}`,
    sub: user.uid,
  };
  // JSON.stringify drops the undefined fields, as jsonwebtoken does.
  return `${base64url({ alg: "none", typ: "JWT" })}.${base64url(payload)}.`;
}

function base64url(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString("base64url");
}
