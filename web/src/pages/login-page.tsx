/** /login: one card, one button, Google sign-in through a popup. */
import { useState } from "react";
import { Link, useSearch } from "wouter";
import { Button } from "../components/ui/button";
import { BrandMark } from "../components/ui/icons";
import { toast } from "../components/ui/use-toast";
import { GoogleIcon } from "../features/auth/components/google-icon";
import { describeAuthError } from "../features/auth/auth-errors";
import { useAuth } from "../features/auth/use-auth";

export function LoginPage() {
  const { signInWithGoogle } = useAuth();
  const [signingIn, setSigningIn] = useState(false);
  // Sent here from the landing page's prompt box: the prompt waits in the browser (features/start).
  const startsAfter = new URLSearchParams(useSearch()).get("then") === "start";

  const signIn = async () => {
    setSigningIn(true);
    try {
      await signInWithGoogle();
      // Stay in "Signing in..." until the route guard moves a now signed-in user to /projects.
      toast({ title: "Welcome!", description: "Successfully signed in with Google." });
    } catch (err) {
      setSigningIn(false);
      const description = describeAuthError(err) ?? "Failed to sign in with Google";
      toast({ title: "Sign in failed", description, variant: "destructive" });
    }
  };

  return (
    <main className="flex min-h-screen flex-col items-center justify-center gap-8 bg-background px-4">
      <Link href="/" className="flex items-center gap-2 rounded-md font-semibold focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring">
        <BrandMark />
        App Builder
      </Link>
      <div className="w-full max-w-sm rounded-xl border bg-card p-8 shadow-sm">
        <div className="mb-6 text-center">
          <h1 className="text-2xl font-bold">Welcome</h1>
          <p className="mt-1 text-sm text-muted-foreground">
            {startsAfter ? "Sign in and your app starts building from your prompt" : "Sign in to build apps with your AI agent"}
          </p>
        </div>
        <Button variant="outline" size="lg" className="w-full" onClick={signIn} disabled={signingIn}>
          <GoogleIcon />
          {signingIn ? "Signing in..." : "Continue with Google"}
        </Button>
        <p className="mt-6 text-center text-xs text-muted-foreground">By continuing, you agree to our Terms of Service and Privacy Policy.</p>
      </div>
    </main>
  );
}
