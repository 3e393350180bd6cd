/**
 * Tells the API who signed in. A failure is only logged, and so is
 * a sync that takes too long: sign-in waits for it, and must not hang on a slow or stuck server.
 */
import type { SyncUser } from "@shared/schemas/user";
import { api } from "../../api/endpoints";
import type { AuthUser } from "./firebase";

export const SYNC_TIMEOUT_MS = 8_000;

export async function syncUser(user: AuthUser, timeoutMs = SYNC_TIMEOUT_MS): Promise<void> {
  const body: SyncUser = {
    id: user.uid,
    email: user.email,
    displayName: user.displayName,
    photoURL: user.photoURL,
  };
  try {
    await api.auth.sync(body, { signal: AbortSignal.timeout(timeoutMs) });
  } catch (err) {
    console.error("User sync failed", err);
  }
}
