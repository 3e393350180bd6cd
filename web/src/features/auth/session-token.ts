/** The bearer token source the API client uses once Firebase is ready. */
import { endsSession } from "./auth-errors";
import { currentIdToken, signOutUser } from "./firebase";

export async function sessionToken(): Promise<string | null> {
  try {
    return await currentIdToken();
  } catch (err) {
    // The provider says this session is over (user disabled, token expired): sign out.
    if (endsSession(err)) await signOutUser();
    throw err;
  }
}
