/** Tells the API who signed in (spec §7 POST /api/auth/sync). A failure is only logged (spec §4). */
import type { SyncUser } from "@shared/schemas/user";
import type { User } from "firebase/auth";
import { apiFetch } from "../../api/client";

export async function syncUser(user: User): Promise<void> {
  const body: SyncUser = {
    id: user.uid,
    email: user.email,
    displayName: user.displayName,
    photoURL: user.photoURL,
  };
  try {
    await apiFetch("/api/auth/sync", { method: "POST", body });
  } catch (err) {
    console.error("User sync failed", err);
  }
}
