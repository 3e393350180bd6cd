/** The bearer token source the API client uses once Firebase is ready. */
import { type Auth, signOut } from "firebase/auth";
import { endsSession } from "./auth-errors";

export function tokenSourceFor(auth: Auth): () => Promise<string | null> {
  return async () => {
    const user = auth.currentUser;
    if (!user) return null;
    try {
      return await user.getIdToken();
    } catch (err) {
      if (endsSession(err)) await signOut(auth);
      throw err;
    }
  };
}
