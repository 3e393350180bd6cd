/**
 * Holds the Firebase auth state for the SPA. On each signed-in event the user is synced to the API before
 * the app treats them as signed in; on sign-out (manual or forced) the query cache is cleared.
 */
import { useQueryClient } from "@tanstack/react-query";
import { type ReactNode, useCallback, useEffect, useMemo, useState } from "react";
import { setTokenSource } from "../../api/auth-token";
import { AuthContext, type AuthState } from "./auth-context";
import { type AuthUser, signInWithGooglePopup, signOutUser, startAuth, watchAuthUser } from "./firebase";
import { sessionToken } from "./session-token";
import { syncUser } from "./sync-user";

export function AuthProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [user, setUser] = useState<AuthUser | null>(null);
  const [loading, setLoading] = useState(true);
  const [signedOutByUser, setSignedOutByUser] = useState(false);

  useEffect(() => {
    let active = true;
    let unsubscribe = () => {};
    let latest = 0;
    let signedInUid: string | null = null;

    startAuth()
      .then(() => {
        if (!active) return;
        // Only now: before Auth is ready, asking for a token would wait on the config fetch it is part of.
        setTokenSource(sessionToken);
        return watchAuthUser(async (next) => {
          const event = ++latest;
          if (next) await syncUser(next);
          else if (signedInUid) queryClient.clear();
          signedInUid = next?.uid ?? null;
          // A newer event overtook this one while it synced: let that one decide.
          if (!active || event !== latest) return;
          setUser(next);
          if (next) setSignedOutByUser(false);
          setLoading(false);
        });
      })
      .then(
        (stop) => {
          if (!stop) return;
          if (active) unsubscribe = stop;
          else stop();
        },
        (err: unknown) => {
          console.error("Sign-in is unavailable: could not load the auth configuration", err);
          if (active) setLoading(false);
        },
      );
    return () => {
      active = false;
      unsubscribe();
    };
  }, [queryClient]);

  const signInWithGoogle = useCallback(() => signInWithGooglePopup(), []);

  const signOut = useCallback(
    async ({ expired = false }: { expired?: boolean } = {}) => {
      // Set before the user becomes null, so no render sees "signed out" without knowing it was chosen.
      setSignedOutByUser(!expired);
      await signOutUser();
      queryClient.clear();
    },
    [queryClient],
  );

  const value = useMemo<AuthState>(
    () => ({ user, loading, signInWithGoogle, signOut, signedOutByUser }),
    [user, loading, signInWithGoogle, signOut, signedOutByUser],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}
