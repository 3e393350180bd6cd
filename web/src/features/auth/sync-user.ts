/** Tells the API who signed in (spec §7 POST /api/auth/sync). A failure is only logged (spec §4). */
import type { SyncUser } from "@shared/schemas/user";
import type { AuthUser } from "./firebase";
import { api } from "../../api/endpoints";

export async function syncUser(user: AuthUser): Promise<void> {
  const body: SyncUser = {
    id: user.uid,
    email: user.email,
    displayName: user.displayName,
    photoURL: user.photoURL,
  };
  try {
    await api.auth.sync(body);
  } catch (err) {
    console.error("User sync failed", err);
  }
}
