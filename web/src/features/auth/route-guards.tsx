/**
 * Route guards: protected screens send signed-out users to /login (or to the root right after Sign
 * Out); the landing and login pages send signed-in users to /projects. Both show a spinner while the auth state
 * loads.
 */
import type { ReactNode } from "react";
import { Redirect } from "wouter";
import { FullPageSpinner } from "../../components/ui/spinner";
import { useAuth } from "./use-auth";

export function ProtectedRoute({ children }: { children: ReactNode }) {
  const { user, loading, signedOutByUser } = useAuth();
  if (loading) return <FullPageSpinner />;
  if (!user) return <Redirect to={signedOutByUser ? "/" : "/login"} replace />;
  return <>{children}</>;
}

export function PublicOnlyRoute({ children }: { children: ReactNode }) {
  const { user, loading } = useAuth();
  if (loading) return <FullPageSpinner />;
  if (user) return <Redirect to="/projects" replace />;
  return <>{children}</>;
}
