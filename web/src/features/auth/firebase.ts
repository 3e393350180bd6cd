/**
 * The SPA's only door to the Firebase SDK: every other file uses these functions and types, so the vendor
 * could be swapped in this one file. Auth is configured at run time from `GET /api/config` so one build
 * serves every deployment; in emulator mode the SDK is pointed at the local Auth emulator.
 *
 * @example
 * await startAuth();
 * const stop = await watchAuthUser((user) => console.log(user?.uid ?? "signed out"));
 * await signInWithGooglePopup();
 */
import { FirebaseError, initializeApp } from "firebase/app";
import { type Auth, connectAuthEmulator, GoogleAuthProvider, getAuth, onAuthStateChanged, signInWithPopup, signOut, type User } from "firebase/auth";
import { api } from "../../api/endpoints";

/** The signed-in user as the identity provider describes it. */
export type AuthUser = User;

let pending: Promise<Auth> | null = null;

/** The app's Auth instance; the first call fetches the config. A failed start is retried on the next call. */
function getFirebaseAuth(): Promise<Auth> {
  pending ??= start().catch((err: unknown) => {
    pending = null;
    throw err;
  });
  return pending;
}

async function start(): Promise<Auth> {
  const config = await api.config();
  const { apiKey, authDomain, projectId, mode, emulatorUrl } = config.auth;
  const app = initializeApp({ apiKey, authDomain, projectId });
  const auth = getAuth(app);
  if (mode === "emulator" && emulatorUrl) {
    connectAuthEmulator(auth, withScheme(emulatorUrl), { disableWarnings: true });
  }
  return auth;
}

/** connectAuthEmulator insists on http(s)://; accept a bare host:port too. */
function withScheme(url: string): string {
  return /^https?:\/\//.test(url) ? url : `http://${url}`;
}

/** Loads the configuration and starts the SDK; rejects when the configuration cannot be loaded. */
export async function startAuth(): Promise<void> {
  await getFirebaseAuth();
}

/**
 * Calls `onChange` with the user (or null) now and on every sign-in or sign-out; answers the unsubscribe.
 * Rejects when the auth configuration cannot be loaded.
 */
export async function watchAuthUser(onChange: (user: AuthUser | null) => void): Promise<() => void> {
  return onAuthStateChanged(await getFirebaseAuth(), onChange);
}

/** Opens the Google popup; rejects with the provider's error when sign-in fails. */
export async function signInWithGooglePopup(): Promise<void> {
  const provider = new GoogleAuthProvider();
  provider.setCustomParameters({ prompt: "select_account" });
  await signInWithPopup(await getFirebaseAuth(), provider);
}

export async function signOutUser(): Promise<void> {
  await signOut(await getFirebaseAuth());
}

/** The signed-in user's ID token (refreshed by the SDK when near expiry), or null when signed out. */
export async function currentIdToken(): Promise<string | null> {
  const user = (await getFirebaseAuth()).currentUser;
  return user ? user.getIdToken() : null;
}

/** The provider's error code (`auth/popup-blocked`, ...) of anything thrown, or null. */
export function authErrorCode(err: unknown): string | null {
  if (err instanceof FirebaseError) return err.code;
  if (typeof err === "object" && err !== null && "code" in err && typeof err.code === "string") return err.code;
  return null;
}
