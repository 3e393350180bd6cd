/** Top bar for signed-in screens outside a project: brand, theme toggle, the user and Sign Out. */
import { Link } from "wouter";
import { SignOutButton } from "../../features/auth/components/sign-out-button";
import { useAuth } from "../../features/auth/use-auth";
import { ThemeToggle } from "../ui/theme-toggle";

export function AppHeader() {
  const { user } = useAuth();
  return (
    <header className="sticky top-0 z-40 border-b bg-background/80 backdrop-blur">
      <div className="mx-auto flex h-14 max-w-6xl items-center gap-3 px-4">
        <Link href="/projects" className="font-semibold">
          App Builder
        </Link>
        <div className="ml-auto flex items-center gap-2">
          {user && (
            <span className="hidden text-sm text-muted-foreground sm:inline" data-testid="user-email">
              {user.displayName || "User"}
              {user.email ? ` · ${user.email}` : ""}
            </span>
          )}
          <ThemeToggle />
          <SignOutButton />
        </div>
      </div>
    </header>
  );
}
