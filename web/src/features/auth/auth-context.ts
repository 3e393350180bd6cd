/** What the auth feature offers the rest of the SPA. */
import type { AuthUser } from "./firebase";
import { createContext } from "react";

export type AuthState = {
  /** The signed-in user, or null when signed out (or still loading). */
  user: AuthUser | null;
  /** True until Firebase has said whether anyone is signed in. */
  loading: boolean;
  /** Opens the Google popup; rejects with the Firebase error when sign-in fails. */
  signInWithGoogle: () => Promise<void>;
  /**
   * Signs out. Chosen by the user, protected screens then send them to the root; with
   * `{ expired: true }` (the API no longer accepts the session) to /login, to sign in again.
   */
  signOut: (options?: { expired?: boolean }) => Promise<void>;
  /** True once the user chose Sign Out, until the next sign-in. */
  signedOutByUser: boolean;
};

export const AuthContext = createContext<AuthState | null>(null);
