/**
 * The Firebase Auth emulator's REST calls tests use to get real (unsigned) emulator ID tokens and to start clean.
 *
 * @example
 * const { idToken } = await signInWithFakeGoogle("127.0.0.1:9099", "demo-app-builder", { email: "a@b.c", name: "A" });
 * await clearEmulatorAccounts("127.0.0.1:9099", "demo-app-builder");
 */
import { decodeJwt } from "../auth/jwt";

/** Deletes every account in the emulator's project; `emulatorHost` is host:port, as in FIREBASE_AUTH_EMULATOR_HOST. */
export async function clearEmulatorAccounts(emulatorHost: string, projectId: string): Promise<void> {
  const res = await fetch(`http://${emulatorHost}/emulator/v1/projects/${encodeURIComponent(projectId)}/accounts`, { method: "DELETE" });
  if (!res.ok) throw new Error(`Clearing Auth emulator accounts failed: ${res.status} ${await res.text()}`);
}

/**
 * Signs in through the emulator's REST API as a Google user, the way the SDK does after the popup. The same email
 * always maps to the same account. Returns a real (unsigned) emulator ID token. The emulator signs users into the
 * project it was started with whatever the API key, so `projectId` is checked against the token, not sent.
 */
export async function signInWithFakeGoogle(
  emulatorHost: string,
  projectId: string,
  user: { email: string; name: string },
): Promise<{ idToken: string; localId: string }> {
  const googleIdToken = JSON.stringify({ sub: `google-${user.email}`, email: user.email, email_verified: true, name: user.name });
  const url = `http://${emulatorHost}/identitytoolkit.googleapis.com/v1/accounts:signInWithIdp?key=fake-api-key`;
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      requestUri: "http://localhost",
      postBody: new URLSearchParams({ id_token: googleIdToken, providerId: "google.com" }).toString(),
      returnSecureToken: true,
    }),
  });
  const body = (await res.json().catch(() => ({}))) as { idToken?: string; localId?: string; error?: { message?: string } };
  if (!res.ok || !body.idToken || !body.localId) {
    throw new Error(`Auth emulator sign-in failed: ${res.status} ${body.error?.message ?? "no idToken in the answer"}`);
  }
  const { aud } = decodeJwt(body.idToken);
  if (aud !== projectId) throw new Error(`The Auth emulator at ${emulatorHost} serves project "${String(aud)}", not "${projectId}".`);
  return { idToken: body.idToken, localId: body.localId };
}
