/** The sidebar footer: avatar, display name (default "User"), e-mail and Sign Out. */
import { useAuth } from "../auth/use-auth";
import { cn } from "../../lib/cn";
import { LogOutIcon } from "../../components/ui/icons";
import { Tooltip } from "../../components/ui/tooltip";
import { UserAvatar } from "./user-avatar";

export function SidebarUser({ collapsed }: { collapsed: boolean }) {
  const { user, signOut } = useAuth();
  const name = user?.displayName || "User";
  return (
    <div className={cn("flex gap-2 border-t p-2", collapsed ? "flex-col items-center" : "flex-col")}>
      <div className={cn("flex min-w-0 items-center gap-2", !collapsed && "px-1 py-1")} data-testid="sidebar-user">
        <UserAvatar photoURL={user?.photoURL ?? null} displayName={user?.displayName ?? null} />
        <div className={cn("grid min-w-0 flex-1 text-left text-sm leading-tight", collapsed && "sr-only")}>
          <span className="truncate font-medium" data-testid="user-name">
            {name}
          </span>
          <span className="truncate text-xs text-muted-foreground" data-testid="user-email">
            {user?.email}
          </span>
        </div>
      </div>
      <Tooltip content="Sign Out" side="right" disabled={!collapsed}>
        <button
          type="button"
          onClick={() => void signOut()}
          aria-label={collapsed ? "Sign Out" : undefined}
          className={cn(
            "flex h-8 items-center gap-2 rounded-md text-sm text-muted-foreground transition-colors hover:bg-muted hover:text-foreground",
            "focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring",
            collapsed ? "w-8 justify-center" : "w-full px-2",
          )}
        >
          <LogOutIcon />
          {!collapsed && "Sign Out"}
        </button>
      </Tooltip>
    </div>
  );
}
