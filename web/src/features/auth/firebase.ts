/**
 * Firebase Auth, configured at run time from `GET /api/config` so one build serves every deployment.
 * In emulator mode the SDK is pointed at the local Auth emulator.
 */
import { initializeApp } from "firebase/app";
import { type Auth, connectAuthEmulator, getAuth } from "firebase/auth";
import { api } from "../../api/endpoints";

let pending: Promise<Auth> | null = null;

/** The app's Auth instance; the first call fetches the config. A failed start is retried on the next call. */
export function getFirebaseAuth(): Promise<Auth> {
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
